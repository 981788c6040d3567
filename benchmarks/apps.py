from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BenchmarksConfig(AppConfig):
    name = "benchmarks"
    verbose_name = _("Benchmark data")

    def ready(self):
        from .cache import use_retry_task
        from .csv_export import escape_wagtail_exports
        from .ingest import adapters  # noqa: F401  (registers every adapter by name: adapter_registry.py)
        from .ingest.tasks import invalidate_cache

        escape_wagtail_exports()
        # The data layer's cache bump retries through an ingest task without importing it (cache.py).
        use_retry_task(invalidate_cache)
