"""Keep TranslationState current: pages when they are published, snippets whenever they are saved."""

from functools import cache

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone
from wagtail.models import Page
from wagtail.signals import page_published

from .models import TranslationState
from .tracking import SOURCE_LANGUAGE, TARGET_LANGUAGE, current_hashes, tracked_fields, tracked_models


@cache
def _tracked():
    return frozenset(tracked_models())


def record_translation_state(obj):
    """Compare `obj`'s English and Spanish values with the last recorded ones and remember what changed."""
    model = type(obj)
    fields = tracked_fields(model)
    en = current_hashes(obj, fields, SOURCE_LANGUAGE)
    es = current_hashes(obj, fields, TARGET_LANGUAGE)
    now = timezone.now()
    with transaction.atomic():
        state, created = TranslationState.objects.select_for_update().get_or_create(
            content_type=ContentType.objects.get_for_model(model), object_id=obj.pk
        )
        entries = {}
        en_changed = es_changed = False
        for field in fields:
            old = state.fields.get(field, {})
            entry = {"en": en[field], "es": es[field], "es_based_on": old.get("es_based_on", "")}
            if old.get("en") != en[field]:
                en_changed = True
            if old.get("es") != es[field]:
                es_changed = True
                # New Spanish text is a translation of the English as it stands now.
                entry["es_based_on"] = en[field] if es[field] else ""
            entries[field] = entry
        state.fields = entries
        if en_changed:
            state.en_changed_at = now
        if es_changed:
            state.es_changed_at = now
        if en_changed or es_changed or created:
            state.save()
    return state


@receiver(page_published, dispatch_uid="editorial_page_published")
def page_published_handler(sender, instance, **kwargs):
    # The published instance carries the revision's content: drafts awaiting review do not count yet.
    if type(instance) in _tracked():
        record_translation_state(instance)


@receiver(post_save, dispatch_uid="editorial_snippet_saved")
def snippet_saved_handler(sender, instance, raw=False, **kwargs):
    if raw or isinstance(instance, Page) or sender not in _tracked():
        return
    record_translation_state(instance)


@receiver(post_delete, dispatch_uid="editorial_tracked_deleted")
def tracked_deleted_handler(sender, instance, **kwargs):
    if sender in _tracked():
        TranslationState.objects.filter(
            content_type=ContentType.objects.get_for_model(sender), object_id=instance.pk
        ).delete()
