from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EditorialConfig(AppConfig):
    name = "editorial"
    verbose_name = _("Editorial workflow")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from wagtail.signals import published

        from localized.form_access import use_field_restriction
        from localized.revisions import use_spanish_source

        from .held import on_published
        from .panels import drop_spanish_page_panels
        from .permissions import restrict_to_translatable_fields
        from .spanish import apply_approved_spanish

        # Translated models (data and pages, below this app) rebuild their Spanish with it, and their
        # edit forms leave translators only the Spanish fields.
        use_spanish_source(apply_approved_spanish)
        use_field_restriction(restrict_to_translatable_fields)

        drop_spanish_page_panels()
        # Pages send it too (after page_published), inside the publish's transaction.
        published.connect(on_published, dispatch_uid="editorial-held-spanish")
