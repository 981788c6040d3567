"""An editor approves a translation draft: its Spanish becomes the approved text and goes live.

Approval changes only Spanish: the live object (its stored row) is saved as a new revision with the
new Spanish and published, so English waiting in an editor's unpublished draft stays unpublished;
that draft is then saved again on top, with the new Spanish, so it is still the editor's latest
work. Chosen "into the draft only", the live object is left alone until the next publish.
"""

import logging

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail.models import Page

from config import four_eyes
from localized.segments import RICH

from .derive import storable
from .held import is_held, live_sources, sources_of
from .models import ApprovedSegment, TranslationDraft
from .spanish import english_segments

logger = logging.getLogger(__name__)

PUBLISH = "publish"
DRAFT_ONLY = "draft"


class ApprovalRefused(Exception):
    pass


FOUR_EYES_REFUSAL = gettext_lazy(
    "You wrote or submitted part of this translation, so someone else must approve it (four eyes)."
)


def may_approve(user, draft):
    return not four_eyes.refuses(user, *draft.authors())


def _invalidate_pages_showing(obj):
    """A snippet's text (a provider's description, a source's title) is shown inside cached pages:
    they are made again, as after an editor's edit of it (benchmarks.admin.menu)."""
    if isinstance(obj, Page):
        return  # a page's publication purges it (articles.cache_purge)
    from benchmarks.cache import invalidate_after_commit

    invalidate_after_commit()


def _republish(obj, user, publish):
    stored = type(obj)._default_manager.get(pk=obj.pk)
    latest = stored.latest_revision
    live_revision_id = getattr(stored, "live_revision_id", None)
    has_draft = bool(stored.has_unpublished_changes and latest is not None and latest.pk != live_revision_id)
    if publish and stored.live:
        revision = stored.save_revision(user=user, log_action=True)
        revision.publish(user=user)
        _invalidate_pages_showing(stored)
        if has_draft:
            # The editor's draft stays their latest revision, now with the approved Spanish.
            latest.as_object().save_revision(user=latest.user, log_action=False)
        return revision
    target = latest.as_object() if latest is not None else stored
    return target.save_revision(user=user, log_action=True)


def approve(obj, draft_id, user, version, mode=PUBLISH):
    with transaction.atomic():
        draft = TranslationDraft.objects.select_for_update().select_related("memory").get(pk=draft_id)
        if draft.status != TranslationDraft.Status.SUBMITTED:
            raise ApprovalRefused(_("This translation is not awaiting review."))
        if version != draft.version:
            raise ApprovalRefused(
                _("The translator changed this translation after you opened it. Review it again.")
            )
        if four_eyes.refuses(user, *draft.authors()):
            raise ApprovalRefused(FOUR_EYES_REFUSAL)
        # A draft's text is cleaned again as it becomes approved (a draft stored by an older version, or
        # by any other way than the workspace, is not trusted); a key the English no longer has is
        # treated as rich text, the stricter reading.
        kinds = {}
        latest = getattr(obj, "get_latest_revision_as_object", None)
        latest = latest() if latest is not None else obj
        for english in (latest, obj):
            for segment in english_segments(english):
                kinds.update({segment.alias: segment.kind} if segment.alias else {})
                kinds[segment.key] = segment.kind
        # Spanish for English that is not live (an editor's unpublished draft) is held: it goes live
        # only with that English (editorial.held), never beside the live English.
        live, latest_english = live_sources(obj), sources_of(latest)
        held = 0
        for segment in draft.segments.all():
            waits = is_held(live, latest_english, segment.key, segment.source_text)
            if not segment.text.strip():
                if waits:
                    ApprovedSegment.objects.filter(memory=draft.memory, key=segment.key).update(
                        held_text="", held_source_text=""
                    )
                else:
                    ApprovedSegment.objects.filter(memory=draft.memory, key=segment.key).delete()
                continue
            text = storable(kinds.get(segment.key, RICH), segment.text, segment.source_text)
            if waits:
                held += 1
                ApprovedSegment.objects.update_or_create(
                    memory=draft.memory,
                    key=segment.key,
                    defaults={"held_text": text, "held_source_text": segment.source_text, "approved_by": user},
                )
                continue
            ApprovedSegment.objects.update_or_create(
                memory=draft.memory,
                key=segment.key,
                defaults={"text": text, "source_text": segment.source_text, "approved_by": user},
            )
        draft.status = TranslationDraft.Status.APPROVED
        draft.reviewed_by = user
        draft.reviewed_at = timezone.now()
        draft.save()
        try:
            revision = _republish(obj, user, publish=(mode == PUBLISH))
        except ValidationError as error:
            # e.g. a Spanish slug a sibling page took since it was typed: nothing is approved.
            raise ApprovalRefused(
                _("The approved Spanish could not be saved: %(problems)s") % {"problems": " ".join(error.messages)}
            ) from error
    logger.info(
        "translation draft %s of %s %s approved by %s (%s, %s held for unpublished English)",
        draft.pk, type(obj).__name__, obj.pk, user, mode, held,
    )
    revision.held_segments = held
    return revision


def request_changes(draft_id, user, version, comment):
    with transaction.atomic():
        draft = TranslationDraft.objects.select_for_update().get(pk=draft_id)
        if draft.status != TranslationDraft.Status.SUBMITTED:
            raise ApprovalRefused(_("This translation is not awaiting review."))
        if version != draft.version:
            raise ApprovalRefused(
                _("The translator changed this translation after you opened it. Review it again.")
            )
        draft.status = TranslationDraft.Status.EDITING
        draft.reviewed_by = user
        draft.reviewed_at = timezone.now()
        draft.review_comment = comment
        draft.version += 1
        draft.save()
    return draft
