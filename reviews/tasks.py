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
# opening of the editor. It now runs once per revision (and editor language) in a worker; the editor
# shows what it found, from the cache, and queues it when a revision has not been checked yet.
TYPED_FIGURES_SECONDS = 30 * 24 * 3600
PENDING_SECONDS = 300


def typed_figures_key(revision_id, language):
    return f"typed-figures:{revision_id}:{language}"


@shared_task(name="reviews.tasks.check_typed_figures")
def check_typed_figures(revision_id, language="en"):
    """Store the warnings (in `language`) about figures typed in the prose of a page revision."""
    from django.core.cache import cache
    from django.utils import translation
    from wagtail.models import Revision

    from articles.figure_check import check_page
    from articles.models import ArticlePage

    revision = Revision.objects.filter(pk=revision_id).first()
    if revision is None:
        return None
    page = revision.as_object()
    if not isinstance(page, ArticlePage):
        return None
    with translation.override(language):
        warnings = [finding.message() for finding in check_page(page)]
    cache.set(typed_figures_key(revision_id, language), warnings, TYPED_FIGURES_SECONDS)
    return len(warnings)


def typed_figure_warnings(page, language):
    """The warnings found in the page's latest revision, or None while they are being looked for
    (the check is then queued, once). A cache or broker outage shows no warning: it never blocks."""
    from django.core.cache import cache

    revision_id = page.latest_revision_id
    if not revision_id:
        return None
    key = typed_figures_key(revision_id, language)
    try:
        found = cache.get(key)
        if found is None and cache.add(f"{key}:pending", 1, PENDING_SECONDS):
            check_typed_figures.delay(revision_id, language)
            found = cache.get(key)  # a worker running tasks eagerly (tests, development) is done already
    except Exception as exc:
        log.warning("typed-figure check of revision %s unavailable: %s", revision_id, exc)
        return None
    return found
