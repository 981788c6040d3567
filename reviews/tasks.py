"""The review of changed figures runs in a worker, after the publication has committed.

Comparing what every live article shows before and after a snapshot renders each article twice
per language: done inside the publish transaction (an editor's click, an import, a refresh) it
held the transaction and the editor's request for as long.
"""

import logging

from celery import shared_task
from django.db import transaction

log = logging.getLogger(__name__)


@shared_task(name="reviews.tasks.record_snapshot_changes")
def record_snapshot_changes(snapshot_id):
    """Record what snapshot `snapshot_id` changed on the live pages (once; see changes.record_changes)."""
    from benchmarks.models import Snapshot

    from .changes import record_changes

    snapshot = Snapshot.objects.filter(pk=snapshot_id).exclude(status=Snapshot.Status.DRAFT).first()
    if snapshot is None:
        return None
    # A failure is logged: the publication stands whatever the review makes of it.
    try:
        with transaction.atomic():
            change_set = record_changes(snapshot)
    except Exception:
        log.exception("could not record the figures snapshot %s changed", snapshot_id)
        return None
    return change_set.pk if change_set else None


def review_after_commit(snapshot_id):
    """Queue the review once the publication commits; if the broker is unreachable, review here."""

    def send():
        try:
            record_snapshot_changes.delay(snapshot_id)
        except Exception as exc:  # the broker (Redis) is down: the editors still get their review
            log.warning("could not queue the review of snapshot %s (%s); recording it now", snapshot_id, exc)
            record_snapshot_changes(snapshot_id)

    transaction.on_commit(send)


# --- figures typed in prose -----------------------------------------------------------------------
# The check formats every figure the page's models and sources have, per language: it ran on every
# opening of the editor, and for every article on each visit of the report. It now runs once per
# revision (and admin language) in a worker and stores what it found (models.TypedFigureCheck); the
# editor and the report read that, and queue the check of a revision nobody has checked yet.
PENDING_SECONDS = 300


def typed_figures_key(revision_id, language):
    return f"typed-figures:{revision_id}:{language}"


@shared_task(name="reviews.tasks.check_typed_figures")
def check_typed_figures(revision_id, language="en"):
    """Store the findings (described in `language`) about figures typed in the prose of a page revision."""
    from dataclasses import asdict

    from django.utils import translation
    from wagtail.models import Revision

    from articles.figure_check import check_page
    from articles.models import ArticlePage

    from .models import TypedFigureCheck

    revision = Revision.objects.filter(pk=revision_id).first()
    if revision is None:
        return None
    page = revision.as_object()
    if not isinstance(page, ArticlePage):
        return None
    with translation.override(language):
        findings = [asdict(finding) for finding in check_page(page)]
    TypedFigureCheck.objects.update_or_create(
        revision=revision, language=language, defaults={"page_id": page.pk, "findings": findings}
    )
    # Only the latest revision is ever read: the checks of older ones go.
    TypedFigureCheck.objects.filter(page_id=page.pk, language=language, revision_id__lt=revision_id).delete()
    return len(findings)


def queue_typed_figure_check(revision_id, language):
    """Queue the check of a revision unless it was queued in the last PENDING_SECONDS; True if it
    was queued now. A cache or broker outage queues nothing (and is logged): the caller shows the
    check as pending, it never blocks."""
    from django.core.cache import cache

    key = typed_figures_key(revision_id, language)
    try:
        if not cache.add(f"{key}:pending", 1, PENDING_SECONDS):
            return False
        check_typed_figures.delay(revision_id, language)
    except Exception as exc:
        log.warning("could not queue the typed-figure check of revision %s: %s", revision_id, exc)
        return False
    return True


def stored_findings(revision_id, language):
    from .models import TypedFigureCheck

    found = (
        TypedFigureCheck.objects.filter(revision_id=revision_id, language=language)
        .values_list("findings", flat=True)
        .first()
    )
    return found if is_current(found) else None


def is_current(findings):
    """False for findings stored by the check before it recorded each field's key (and so its other
    language, its provider-named place and its related evidence): read as not checked yet, they are
    checked again instead of shown as they were. A clean revision stored then stays as it was."""
    return findings is not None and all("key" in finding for finding in findings)


def typed_figure_warnings(page, language):
    """The warnings found in the page's latest revision, or None while they are being looked for
    (the check is then queued, once). A cache or broker outage shows what is stored: it never blocks."""
    from articles.figure_check import TypedFigure

    revision_id = page.latest_revision_id
    if not revision_id:
        return None
    found = stored_findings(revision_id, language)
    if found is None and queue_typed_figure_check(revision_id, language):
        found = stored_findings(revision_id, language)  # a worker running tasks eagerly is done already
    if found is None:
        return None
    return [TypedFigure(**finding).message() for finding in found]
