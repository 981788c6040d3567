from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EditorialConfig(AppConfig):
    name = "editorial"
    verbose_name = _("Editorial workflow")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from .panels import drop_spanish_page_panels

        drop_spanish_page_panels()
