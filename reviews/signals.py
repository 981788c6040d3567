"""When a snapshot is published (a refresh, an import, an editor, a correction), record what it changed."""

import logging

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from benchmarks.models import Snapshot

log = logging.getLogger(__name__)


@receiver(post_save, sender=Snapshot, dispatch_uid="reviews_snapshot_published")
def snapshot_published(sender, instance, raw=False, **kwargs):
    if raw or instance.status != Snapshot.Status.PUBLISHED:
        return
    from .changes import record_changes

    # A savepoint: a failure here is logged and never undoes the publication itself.
    try:
        with transaction.atomic():
            record_changes(instance)
    except Exception:
        log.exception("could not record the figures snapshot %s changed", instance.pk)
