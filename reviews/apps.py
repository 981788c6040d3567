from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReviewsConfig(AppConfig):
    name = "reviews"
    verbose_name = _("Review of changed figures")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from articles.change_log import use_change_reader

        from . import change_log, signals  # noqa: F401  (signals record changes when a snapshot is published)

        # The pages show the recorded changes without importing this layer (articles/change_log.py).
        use_change_reader(change_log)
