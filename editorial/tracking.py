"""Which objects carry translatable text, and how their English and Spanish values are compared."""

import hashlib
import json

from django.conf import settings
from django.utils.html import strip_tags
from modeltranslation.translator import translator
from wagtail.fields import StreamValue
from wagtail.models import Page

SOURCE_LANGUAGE = settings.MODELTRANSLATION_DEFAULT_LANGUAGE
TARGET_LANGUAGE = "es"
# Slugs and URL paths are addresses, not text a translator writes; an empty Spanish slug falls back to
# the English one, so listing it would only add noise.
UNTRACKED_FIELDS = {"slug", "url_path"}


def tracked_models():
    """Every model registered with modeltranslation (page types and snippets), except the abstract Page."""
    models = [model for model in translator.get_registered_models() if model is not Page]
    return sorted(models, key=lambda model: (not issubclass(model, Page), model._meta.label))


def tracked_fields(model):
    options = translator.get_options_for_model(model)
    return sorted(name for name in options.all_fields if name not in UNTRACKED_FIELDS)


def _strip_block_ids(data):
    # Block ids are regenerated when content is pasted or restored; they are not text.
    if isinstance(data, dict):
        return {key: _strip_block_ids(value) for key, value in data.items() if key != "id"}
    if isinstance(data, list):
        return [_strip_block_ids(item) for item in data]
    return data


def normalised(value):
    if value is None:
        return ""
    if isinstance(value, StreamValue):
        return (
            json.dumps(_strip_block_ids(value.get_prep_value()), sort_keys=True, default=str)
            if len(value)
            else ""
        )
    return str(value)


def is_blank(value):
    if value is None:
        return True
    if isinstance(value, StreamValue):
        return len(value) == 0
    # Rich text editors leave "<p></p>" behind when emptied.
    return not strip_tags(str(value)).strip()


def value_hash(value):
    if is_blank(value):
        return ""
    return hashlib.sha256(normalised(value).encode()).hexdigest()[:20]


def language_value(obj, field, language):
    return getattr(obj, f"{field}_{language}", None)


def missing_fields(obj, fields):
    """Fields with English text and no Spanish text."""
    return [
        field
        for field in fields
        if not is_blank(language_value(obj, field, SOURCE_LANGUAGE))
        and is_blank(language_value(obj, field, TARGET_LANGUAGE))
    ]


def current_hashes(obj, fields, language):
    return {field: value_hash(language_value(obj, field, language)) for field in fields}
