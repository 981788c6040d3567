from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BenchmarksConfig(AppConfig):
    name = "benchmarks"
    verbose_name = _("Benchmark data")

    def ready(self):
        from .cache import follow_content_version, use_retry_task
        from .csv_export import escape_wagtail_exports
        from .ingest import adapters  # noqa: F401  (registers every adapter by name: adapter_registry.py)
        from .ingest.tasks import invalidate_cache
        from .versioning import content_version_bumped

        escape_wagtail_exports()
        # The data layer's cache bump retries through an ingest task without importing it (cache.py).
        use_retry_task(invalidate_cache)
        # Cached whole pages follow the keys each committed change bumped (versioning.py sends them).
        content_version_bumped.connect(follow_content_version, dispatch_uid="cache-follows-content-version")
