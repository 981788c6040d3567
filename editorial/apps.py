from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EditorialConfig(AppConfig):
    name = "editorial"
    verbose_name = _("Editorial workflow")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from wagtail.signals import published

        from localized.revisions import use_spanish_source

        from .held import on_published
        from .panels import drop_spanish_page_panels
        from .spanish import apply_approved_spanish

        # Translated models (data and pages, below this app) rebuild their Spanish with it.
        use_spanish_source(apply_approved_spanish)

        drop_spanish_page_panels()
        # Pages send it too (after page_published), inside the publish's transaction.
        published.connect(on_published, dispatch_uid="editorial-held-spanish")
