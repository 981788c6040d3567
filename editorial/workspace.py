"""The translation workspace's rules: segment status, saving a draft, approving it.

A segment is *missing* (no Spanish), *outdated* (its Spanish translates an English text that has
changed since; the English diff says how), or *up to date*. A draft is saved all or nothing: any
segment with a broken token, a bad slug or a clash with someone else's edit refuses the save.
"""

import difflib
import hashlib
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_unicode_slug
from django.db import transaction
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from localized.segments import RICH, Segment, is_blank, rich_text_source, with_aliases, without_block_keys

from . import richtext_tokens
from .held import held_view, is_held, live_object, live_sources
from .models import ApprovedSegment, DraftSegment, TranslationDraft, TranslationMemory
from .spanish import english_segments, memory_for

# Which English the workspace lists: the live one (default), or an editor's unpublished draft, shown
# as a marked preview; Spanish written for the draft's English is held until it is published
# (editorial.held).
ENGLISH_LIVE = "live"
ENGLISH_DRAFT = "draft"

MISSING = "missing"
OUTDATED = "outdated"
UP_TO_DATE = "up_to_date"
STATUS_LABELS = {
    MISSING: gettext_lazy("Missing"),
    OUTDATED: gettext_lazy("Outdated"),
    UP_TO_DATE: gettext_lazy("Up to date"),
}


def is_outdated(based_on, source):
    """Whether Spanish written for the English `based_on` no longer translates `source` (the English
    as segments give it). Draftail's block keys are not text (segments.without_block_keys)."""
    # A rich source (markup) is compared as segments give rich text, bare text of a field that
    # became rich text included; a plain one as it is.
    based = rich_text_source(based_on) if source.startswith("<") else without_block_keys(based_on)
    return based != source


def text_hash(text):
    return hashlib.sha256((text or "").encode()).hexdigest()[:16]


def word_diff(old, new):
    """HTML marking words removed from `old` (<del>) and added in `new` (<ins>)."""
    old_words, new_words = (old or "").split(), (new or "").split()
    parts = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(a=old_words, b=new_words).get_opcodes():
        if op == "equal":
            parts.append(escape(" ".join(old_words[a1:a2])))
            continue
        if a2 > a1:
            parts.append(f"<del>{escape(' '.join(old_words[a1:a2]))}</del>")
        if b2 > b1:
            parts.append(f"<ins>{escape(' '.join(new_words[b1:b2]))}</ins>")
    return mark_safe(" ".join(parts))


@dataclass
class SegmentRow:
    index: int
    segment: Segment
    approved: ApprovedSegment | None
    draft: DraftSegment | None
    elements: dict = field(default_factory=dict)
    english_shown: str = ""
    # A refused form shown again keeps the hash it was loaded with, so a clash since is still caught.
    form_seen: str = ""
    # The English is an editor's unpublished draft's (differs from the live English, or is new there).
    unpublished: bool = False

    @property
    def key(self):
        return self.segment.key

    @property
    def text(self):
        """The Spanish the translator works on: the draft's, else the approved one (stored form)."""
        if self.draft is not None:
            return self.draft.text
        return self.approved.text if self.approved else ""

    @property
    def based_on(self):
        if self.draft is not None:
            return self.draft.source_text
        return self.approved.source_text if self.approved else ""

    @property
    def status(self):
        if is_blank(self.text):
            return MISSING
        if is_outdated(self.based_on, self.segment.source):
            return OUTDATED
        return UP_TO_DATE

    @property
    def status_label(self):
        return STATUS_LABELS[self.status]

    @property
    def changed_in_draft(self):
        return self.draft is not None and self.draft.text != (self.approved.text if self.approved else "")

    @property
    def is_rich(self):
        return self.segment.kind == RICH

    @property
    def text_shown(self):
        """The Spanish with the English's tokens in place of its figures and link targets."""
        text = self.text
        if not self.is_rich:
            return text
        for token, element in self.elements.items():
            text = text.replace(element, token, 1)
        return text

    @property
    def seen(self):
        """Hash of the Spanish as the form shows it: posted back unchanged, the segment was not edited."""
        return self.form_seen or text_hash(_normal(self.text_shown))

    @property
    def english_diff(self):
        """The English change in the form the translator reads it (figures and links as tokens)."""
        if self.status != OUTDATED:
            return ""
        if not self.is_rich:
            return word_diff(self.based_on, self.segment.source)
        return word_diff(richtext_tokens.tokenize(without_block_keys(self.based_on))[0], self.english_shown)


def open_draft(memory):
    return memory.drafts.exclude(status=TranslationDraft.Status.APPROVED).first()


def current_english(obj):
    """The English being translated: the newest revision (an editor's unpublished draft counts)."""
    latest = getattr(obj, "get_latest_revision_as_object", None)
    return latest() if latest is not None else obj


def has_unpublished_english(obj):
    """Whether an editor's unpublished draft has English text the live object does not."""
    live = live_sources(obj)
    return any(live.get(segment.key) != segment.source for segment in english_segments(current_english(obj)))


def workspace_rows(obj, memory=None, draft=None, english=ENGLISH_LIVE):
    memory = memory or memory_for(obj)
    source = current_english(obj) if english == ENGLISH_DRAFT else live_object(obj)
    segments = english_segments(source)
    live = live_sources(obj) if english == ENGLISH_DRAFT else {}
    approved = with_aliases({segment.key: segment for segment in memory.segments.all()}, segments)
    drafted = with_aliases({segment.key: segment for segment in draft.segments.all()} if draft else {}, segments)
    rows = []
    for index, segment in enumerate(segments):
        row = SegmentRow(
            index, segment, held_view(approved.get(segment.key), segment.source), drafted.get(segment.key),
            unpublished=english == ENGLISH_DRAFT and live.get(segment.key) != segment.source,
        )
        if row.is_rich:
            row.english_shown, row.elements = richtext_tokens.tokenize(segment.source)
        else:
            row.english_shown = segment.source
        rows.append(row)
    return rows


def filter_rows(rows, status):
    if status in (MISSING, OUTDATED, UP_TO_DATE):
        return [row for row in rows if row.status == status]
    return rows


class DraftRefused(Exception):
    def __init__(self, errors, clashes=()):
        super().__init__(errors)
        self.errors = errors  # {segment index: [messages]}
        self.clashes = set(clashes)  # indexes someone else changed meanwhile: show their text again


def _normal(text):
    return (text or "").replace("\r\n", "\n").strip()


def _slug_taken(obj, slug):
    """Whether a sibling page already answers to `slug` in Spanish (its own Spanish slug, or its
    English one where it has none, as the Spanish address falls back to it)."""
    siblings = getattr(obj, "get_siblings", None)
    if siblings is None:
        return False
    return any(
        slug == (spanish or english)
        for spanish, english in siblings(inclusive=False).values_list("slug_es", "slug_en")
    )


def _clean_text(row, posted, obj=None):
    """The stored form of a posted translation, or a list of problems."""
    posted = _normal(posted)
    if not posted:
        return "", []
    if row.is_rich:
        problems = richtext_tokens.check(posted, row.elements)
        return (richtext_tokens.restore(posted, row.elements), []) if not problems else (None, problems)
    if row.key == "slug":
        try:
            validate_unicode_slug(posted)
        except ValidationError as error:
            return None, list(error.messages)
        if obj is not None and _slug_taken(obj, posted):
            return None, [_("This slug is already in use")]
    return posted, []


def save_draft(obj, user, posted, submit=False, english=ENGLISH_LIVE):
    """Write the segments the user changed into the open draft (created if none). `posted` maps a row
    index to (text, seen hash, confirmed) of the rows listed for `english`. Refuses everything if any
    segment is wrong or clashes."""
    memory = memory_for(obj)
    with transaction.atomic():
        # One save at a time per object: two first saves would each create the open draft.
        memory = TranslationMemory.objects.select_for_update().get(pk=memory.pk)
        draft = open_draft(memory)
        if draft is not None:  # an approval of it waits for this save, or this save for the approval
            draft = TranslationDraft.objects.select_for_update().get(pk=draft.pk)
            if draft.status == TranslationDraft.Status.APPROVED:
                draft = None  # approved while this save waited: start a new draft
        rows = workspace_rows(obj, memory, draft, english)
        errors, clashes, writes = {}, set(), []
        for row in rows:
            if row.index not in posted:
                continue
            text, seen, confirmed = posted[row.index]
            if text_hash(_normal(text)) == seen and not confirmed:
                continue  # posted back as the form showed it: not edited (even if someone else did since)
            cleaned, problems = _clean_text(row, text, obj)
            if problems:
                errors[row.index] = problems
                continue
            if cleaned == row.text and not (confirmed and row.status == OUTDATED):
                continue
            if seen != row.seen:
                errors[row.index] = [
                    _("Someone else changed this segment while you were editing it. Their text is shown now; "
                      "make your change again.")
                ]
                clashes.add(row.index)
                continue
            writes.append((row, cleaned))
        if errors:
            raise DraftRefused(errors, clashes)
        if draft is None and (writes or submit):
            draft = TranslationDraft.objects.create(memory=memory, created_by=user, updated_by=user, version=0)
        if draft is None:
            return None
        for row, cleaned in writes:
            DraftSegment.objects.update_or_create(
                draft=draft,
                key=row.key,
                defaults={
                    "text": cleaned,
                    "source_text": row.segment.source,
                    "base_text": row.approved.text if row.approved else "",
                    "written_by": user,
                },
            )
        draft.version += 1
        draft.updated_by = user
        if submit:
            if not draft.segments.exists():
                raise DraftRefused({None: [_("There is nothing to submit: no segment was changed.")]})
            draft.status = TranslationDraft.Status.SUBMITTED
            draft.submitted_at = timezone.now()
            draft.submitted_by = user
            draft.review_comment = ""
        draft.save()
        return draft


@dataclass
class ReviewRow:
    key: str
    label: str
    english: str
    old: str
    new: str
    # The English it translates is not live: approved, the Spanish waits for it (editorial.held).
    unpublished: bool = False

    @property
    def diff(self):
        return word_diff(self.old, self.new)


def review_rows(obj, draft):
    """Each drafted segment: the English beside the old (approved) and new (draft) Spanish."""
    memory = draft.memory
    segments = english_segments(current_english(obj))
    approved = with_aliases({segment.key: segment for segment in memory.segments.all()}, segments)
    labels = {segment.key: segment.label for segment in segments}
    live, latest = live_sources(obj), {segment.key: segment.source for segment in segments}
    rows = []
    for segment in draft.segments.order_by("pk"):
        old = held_view(approved.get(segment.key), segment.source_text)
        if old is not None and old.text == segment.text and old.source_text == segment.source_text:
            continue
        rows.append(
            ReviewRow(
                key=segment.key,
                label=labels.get(segment.key, segment.key),
                english=segment.source_text,
                old=old.text if old else "",
                new=segment.text,
                unpublished=is_held(live, latest, segment.key, segment.source_text),
            )
        )
    return rows
