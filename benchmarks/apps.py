from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BenchmarksConfig(AppConfig):
    name = "benchmarks"
    verbose_name = _("Benchmark data")

    def ready(self):
        from .csv_export import escape_wagtail_exports

        escape_wagtail_exports()
