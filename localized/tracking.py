"""Which objects carry translatable text, and when a value of theirs counts as blank."""

from django.conf import settings
from django.utils.html import strip_tags
from modeltranslation.translator import translator
from wagtail.fields import StreamValue
from wagtail.models import Page

SOURCE_LANGUAGE = settings.MODELTRANSLATION_DEFAULT_LANGUAGE
TARGET_LANGUAGE = "es"
# Slugs and URL paths are addresses, not text a reader sees as such.
UNTRACKED_FIELDS = {"slug", "url_path"}


def tracked_models():
    """Every model registered with modeltranslation (page types and snippets), except the abstract Page."""
    models = [model for model in translator.get_registered_models() if model is not Page]
    return sorted(models, key=lambda model: (not issubclass(model, Page), model._meta.label))


def tracked_fields(model):
    options = translator.get_options_for_model(model)
    return sorted(name for name in options.all_fields if name not in UNTRACKED_FIELDS)


def is_blank(value):
    if value is None:
        return True
    if isinstance(value, StreamValue):
        return len(value) == 0
    # Rich text editors leave "<p></p>" behind when emptied.
    return not strip_tags(str(value)).strip()
