from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FirstPartyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "firstparty"
    verbose_name = _("First-party measurement")
