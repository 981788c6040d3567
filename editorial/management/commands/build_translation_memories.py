"""Give every translated object its translation memory and rebuild its live Spanish fields from it.

Run once after upgrading to the translation workspace. An object without a memory gets one started
from the Spanish its row stores (editorial.spanish.memory_for); then the Spanish columns of the row —
for a page, its live content — are rewritten from the memory, so live pages get their derived
Spanish bodies (the English structure with approved text) at once, without a new revision. Running it
again changes nothing.

Left alone: an object with Spanish approved after its last publication (an editor chose "only store
it": that Spanish goes live with the next publication, not with this command), and a page's Spanish
slug (changing it moves the Spanish URLs of the page and its descendants, which publishing does).
"""

from django.contrib.contenttypes.models import ContentType
from django.core.management.base import BaseCommand
from wagtail.fields import StreamField
from wagtail.models import Page

from editorial.models import TranslationMemory
from editorial.spanish import TARGET_LANGUAGE, apply_spanish, memory_for, translated_fields
from editorial.status import translated_models, translated_objects
from localized.segments import raw_stream


def approved_after_publication(obj, segments):
    """Spanish an editor approved after the object's last publication: not meant to be live yet."""
    published = getattr(obj, "last_published_at", None)
    return published is not None and any(
        segment.approved_by_id is not None and segment.approved_at > published for segment in segments
    )


def _same(field, old, new):
    if isinstance(field, StreamField):
        return raw_stream(old) == raw_stream(new)
    return (old or "") == (new or "")


def spanish_changes(obj, translations):
    """{column: value} of the Spanish columns that differ from what `translations` makes of them."""
    model = type(obj)
    columns = [f"{name}_{TARGET_LANGUAGE}" for name in translated_fields(model)]
    before = {column: getattr(obj, column) for column in columns}
    apply_spanish(obj, translations)
    return {
        column: getattr(obj, column)
        for column in columns
        if not _same(model._meta.get_field(column), before[column], getattr(obj, column))
    }


class Command(BaseCommand):
    help = (
        "Create the translation memory of every page, provider and source from its stored Spanish, "
        "and rewrite the live Spanish fields from the memories."
    )

    def handle(self, *args, **options):
        counts = dict.fromkeys(("objects", "created", "rewritten", "held", "slugs"), 0)
        for model in translated_models():
            content_type = ContentType.objects.get_for_model(model)
            known = set(
                TranslationMemory.objects.filter(content_type=content_type).values_list("object_id", flat=True)
            )
            for obj in translated_objects(model).iterator():
                counts["objects"] += 1
                counts["created"] += obj.pk not in known
                segments = list(memory_for(obj).segments.all())
                if approved_after_publication(obj, segments):
                    counts["held"] += 1
                    continue
                changes = spanish_changes(obj, {segment.key: segment.text for segment in segments})
                if isinstance(obj, Page) and f"slug_{TARGET_LANGUAGE}" in changes:
                    del changes[f"slug_{TARGET_LANGUAGE}"]
                    counts["slugs"] += 1
                if changes:
                    model._default_manager.filter(pk=obj.pk).update(**changes)
                    counts["rewritten"] += 1
        if counts["rewritten"]:
            self._invalidate_caches()
        self.stdout.write(
            "objects: {objects}; translation memories created: {created}; live Spanish rewritten: "
            "{rewritten}; held back (Spanish approved after the last publication): {held}; "
            "page slugs left for the next publication: {slugs}".format(**counts)
        )

    def _invalidate_caches(self):
        from benchmarks.cache import bump_data_generation
        from config.page_cache import bump_page_generation

        try:
            bump_page_generation()
            bump_data_generation()
        except Exception as exc:  # the rows are rewritten either way; cached copies expire by themselves
            self.stderr.write(f"The page cache could not be invalidated ({exc}); cached pages expire by themselves.")
