"""Spanish fields rebuilt from approved segments: the only way Spanish text reaches a revision.

`SpanishFromMemoryMixin` goes on every translated page type and snippet. Each revision saved,
previewed or published gets its Spanish fields from the object's `TranslationMemory`, and its
Spanish StreamFields are derived from the English ones (editorial.derive). A translator's draft
lives in `TranslationDraft` until an editor approves it (editorial.approval).
"""

import logging

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, transaction
from modeltranslation.translator import NotRegistered, translator
from wagtail.fields import StreamField

# The mixin sits below the data and page layers, which use it; it calls apply_approved_spanish
# (registered in editorial.apps). Re-exported here for the modules that know it by this name.
from localized.revisions import SpanishFromMemoryMixin  # noqa: F401
from localized.segments import field_kind, is_blank, raw_stream, segments_of

from .derive import align_legacy, derive_stream, storable

logger = logging.getLogger(__name__)

SOURCE_LANGUAGE = "en"
TARGET_LANGUAGE = "es"
# Addresses, not text: a Spanish slug is still translated (as the "slug" segment) but url_path is computed.
NOT_SEGMENTS = {"url_path"}


def translated_fields(model):
    """The modeltranslation fields of `model` that hold text a translator writes, in form order."""
    try:
        options = translator.get_options_for_model(model)
    except NotRegistered:
        return []
    names = [name for name in options.all_fields if name not in NOT_SEGMENTS]
    order = {field.name: index for index, field in enumerate(model._meta.get_fields())}
    return sorted(names, key=lambda name: order.get(name, 0))


def english_segments(obj):
    return segments_of(obj, translated_fields(type(obj)), SOURCE_LANGUAGE)


def _stored(obj):
    """The object as its database row holds it (for a page: its live content), or `obj` if unsaved."""
    if obj.pk is None:
        return obj
    return type(obj)._default_manager.filter(pk=obj.pk).first() or obj


def legacy_translations(obj):
    """{key: Spanish} read from the Spanish fields an object was given before it had a memory."""
    found = {}
    model = type(obj)
    for name in translated_fields(model):
        field = model._meta.get_field(name)
        english = getattr(obj, f"{name}_{SOURCE_LANGUAGE}", None)
        spanish = getattr(obj, f"{name}_{TARGET_LANGUAGE}", None)
        if isinstance(field, StreamField):
            found.update(align_legacy(field.stream_block, raw_stream(english), raw_stream(spanish), [name]))
        elif not is_blank(str(spanish or "")) and not is_blank(str(english or "")):
            found[name] = str(spanish)
    return found


def memory_for(obj, create=True):
    """The object's translation memory. The first time, it starts from the Spanish the object's
    stored row already has (content written before the workspace, demo and fixtures)."""
    from .models import ApprovedSegment, TranslationMemory

    content_type = ContentType.objects.get_for_model(obj)
    memory = TranslationMemory.objects.filter(content_type=content_type, object_id=obj.pk).first()
    if memory is not None or not create or obj.pk is None:
        return memory
    stored = _stored(obj)
    english = {segment.key: segment for segment in english_segments(stored)}
    try:
        with transaction.atomic():
            memory = TranslationMemory.objects.create(content_type=content_type, object_id=obj.pk)
            ApprovedSegment.objects.bulk_create(
                ApprovedSegment(
                    memory=memory,
                    key=key,
                    text=storable(english[key].kind, text, english[key].source),
                    source_text=english[key].source,
                )
                for key, text in legacy_translations(stored).items()
                if key in english
            )
    except IntegrityError:  # created meanwhile by another request
        memory = TranslationMemory.objects.get(content_type=content_type, object_id=obj.pk)
    return memory


def approved_texts(obj):
    """{key: ApprovedSegment} of the object (empty if it has no memory yet)."""
    memory = memory_for(obj)
    if memory is None:
        return {}
    return {segment.key: segment for segment in memory.segments.all()}


def _empty(field):
    return None if field.null else ""


def apply_spanish(obj, translations, fallback=None):
    """Set every Spanish field of `obj` from `translations` ({key: Spanish text}), deriving the Spanish
    StreamFields from the English ones. A StreamField whose text has no translation at all stays empty
    (the page then has no Spanish version); one with no text to translate (only data blocks) is
    derived once any other field of the object is translated (a Spanish title), since its Spanish is
    then complete. Within a translated body a missing segment shows the English text only if
    settings.TRANSLATION_SEGMENT_FALLBACK allows it."""
    if fallback is None:
        fallback = getattr(settings, "TRANSLATION_SEGMENT_FALLBACK", True)
    model = type(obj)
    names = translated_fields(model)
    streams = [name for name in names if isinstance(model._meta.get_field(name), StreamField)]
    translated_elsewhere = False
    for name in names:
        if name in streams:
            continue
        target = f"{name}_{TARGET_LANGUAGE}"
        field = model._meta.get_field(name)
        text = storable(field_kind(field), translations.get(name), getattr(obj, f"{name}_{SOURCE_LANGUAGE}", ""))
        translated_elsewhere = translated_elsewhere or not is_blank(text)
        setattr(obj, target, text if text is not None else _empty(model._meta.get_field(target)))
    for name in streams:
        block = model._meta.get_field(name).stream_block
        english = raw_stream(getattr(obj, f"{name}_{SOURCE_LANGUAGE}", None))
        derived, count, leaves = derive_stream(block, english, translations, fallback, [name])
        keep = count or (english and not leaves and translated_elsewhere)
        setattr(obj, f"{name}_{TARGET_LANGUAGE}", derived if keep else [])
    return obj


def apply_approved_spanish(obj):
    """Give `obj` the approved Spanish; a translator's preview (workspace_views.PreviewView) adds its
    draft as `obj.spanish_preview_overrides` ({key: text}), kept each time this runs while it renders."""
    if obj.pk is None:
        return obj
    from .held import with_held

    approved = approved_texts(obj)
    # A segment approved only for unpublished English has no live text yet (editorial.held).
    live = {key: segment.text for key, segment in approved.items() if segment.text}
    translations = with_held(obj, live, approved)
    translations.update(getattr(obj, "spanish_preview_overrides", None) or {})
    return apply_spanish(obj, translations)
