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

