"""The translation backlog, segment by segment (the rules of editorial.workspace, for every object).

For each page, provider and source: how many English segments have no approved Spanish (*missing*),
how many have Spanish written for an older English (*outdated*), how many of the missing ones Spanish
readers see in English (a missing segment inside a body that has Spanish, while
settings.TRANSLATION_SEGMENT_FALLBACK is on: *English shown*), and whether a translation draft is open.

Objects are read from their stored rows: for a page, and for a provider or source, that is the live
content, so an English draft changes nothing here until it is published (the workspace already shows
its English). An object without a translation memory yet is measured against the Spanish its row
stores, which is what editorial.spanish.memory_for will start its memory from.
"""

from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from wagtail.fields import StreamField
from wagtail.models import Page

from localized.segments import is_blank, with_aliases
from localized.tracking import tracked_models

from .models import ApprovedSegment, TranslationDraft, TranslationMemory
from .spanish import english_segments, legacy_translations, translated_fields
from .workspace import is_outdated
from .workspace_views import REVIEW_PERMISSION, workspace_url

MISSING = "missing"
OUTDATED = "outdated"
REVIEW = "review"
NEEDS_WORK = ""
UP_TO_DATE = "up_to_date"
EVERYTHING = "all"


def translated_models():
    """Page types first, then snippets: every model whose Spanish comes from a translation memory."""
    return [model for model in tracked_models() if translated_fields(model)]


def stream_fields(model):
    return {name for name in translated_fields(model) if isinstance(model._meta.get_field(name), StreamField)}


def segment_counts(model, segments, approved, fallback):
    """(missing, outdated, English shown) of `segments` (the English ones) against `approved`, which
    maps each segment key with approved Spanish to the English that Spanish translates."""
    streams = stream_fields(model)

    def stream_of(key):
        name = key.split("/", 1)[0]
        return name if name in streams and name != key else None

    # A StreamField with at least one approved leaf is built for Spanish readers; its other leaves
    # then show their English (editorial.spanish.apply_spanish).
    translated = {stream_of(segment.key) for segment in segments if segment.key in approved} - {None}
    missing = outdated = shown = 0
    for segment in segments:
        based_on = approved.get(segment.key)
        if based_on is None:
            missing += 1
            shown += bool(fallback and stream_of(segment.key) in translated)
        elif is_outdated(based_on, segment.source):
            outdated += 1
    return missing, outdated, shown


@dataclass
class StatusRow:
    obj: object
    missing: int = 0
    outdated: int = 0
    english_shown: int = 0
    draft_status: str = ""  # the open draft's TranslationDraft.Status, if any
    can_review: bool = False

    @property
    def key(self):
        return f"{self.obj._meta.model_name}:{self.obj.pk}"

    @property
    def is_page(self):
        return isinstance(self.obj, Page)

    @property
    def title(self):
        return self.obj.title if self.is_page else str(self.obj)

    @property
    def kind(self):
        return self.obj._meta.verbose_name

    @property
    def awaiting_review(self):
        return self.draft_status == TranslationDraft.Status.SUBMITTED

    @property
    def draft_label(self):
        return TranslationDraft.Status(self.draft_status).label if self.draft_status else ""

    @property
    def translate_url(self):
        return workspace_url(self.obj)

    @property
    def review_url(self):
        return workspace_url(self.obj, "editorial_workspace_review") if self.awaiting_review and self.can_review else ""

    @property
    def needs_work(self):
        return bool(self.missing or self.outdated or self.draft_status)

    def matches(self, status):
        if status == NEEDS_WORK:
            return self.needs_work
        if status == UP_TO_DATE:
            return not self.needs_work
        if status == MISSING:
            return self.missing > 0
        if status == OUTDATED:
            return self.outdated > 0
        if status == REVIEW:
            return self.awaiting_review
        return True


def translated_objects(model):
    if issubclass(model, Page):
        # An alias copies its original's content (Spanish included) whenever the original is published.
        return model._default_manager.filter(alias_of__isnull=True).order_by("path")
    # A model whose name on the status page reads related rows (an endpoint: "Provider (Tier) · Model") says
    # which, so the page stays at one query per model.
    return model._default_manager.select_related(*getattr(model, "translation_select_related", ()))


def _memories():
    """{(content type id, object id): memory id}, {memory id: {key: English}}, {memory id: draft status}."""
    memories = {
        (content_type_id, object_id): pk
        for pk, content_type_id, object_id in TranslationMemory.objects.values_list(
            "pk", "content_type_id", "object_id"
        )
    }
    approved = defaultdict(dict)
    for memory_id, key, text, source_text in ApprovedSegment.objects.values_list(
        "memory_id", "key", "text", "source_text"
    ):
        if not is_blank(text):
            approved[memory_id][key] = source_text
    drafts = dict(
        TranslationDraft.objects.exclude(status=TranslationDraft.Status.APPROVED).values_list("memory_id", "status")
    )
    return memories, approved, drafts


def object_status(obj, approved, draft_status="", fallback=True):
    """The StatusRow of one object; `approved` is None when it has no memory yet."""
    segments = english_segments(obj)
    if approved is None:
        english = {segment.key: segment.source for segment in segments}
        approved = {key: english[key] for key in legacy_translations(obj) if key in english}
    missing, outdated, shown = segment_counts(type(obj), segments, with_aliases(approved, segments), fallback)
    return StatusRow(obj=obj, missing=missing, outdated=outdated, english_shown=shown, draft_status=draft_status)


def translation_backlog(user):
    """Rows for every translated object, up to date or not (a typo in published Spanish is fixed from
    here too): pages in tree order, then snippets.

    A constant number of queries whatever the amount of content: one per translated model, then
    the memories, their approved segments and the open drafts, each in one query.
    """
    fallback = getattr(settings, "TRANSLATION_SEGMENT_FALLBACK", True)
    can_review = user.has_perm(REVIEW_PERMISSION)
    models = translated_models()
    content_types = ContentType.objects.get_for_models(*models)
    memories, approved, drafts = _memories()
    pages, snippets = [], []
    for model in models:
        content_type_id = content_types[model].pk
        for obj in translated_objects(model):
            memory_id = memories.get((content_type_id, obj.pk))
            row = object_status(
                obj,
                approved.get(memory_id, {}) if memory_id is not None else None,
                drafts.get(memory_id, ""),
                fallback,
            )
            row.can_review = can_review
            (pages if row.is_page else snippets).append(row)
    pages.sort(key=lambda row: row.obj.path)
    return pages + snippets
