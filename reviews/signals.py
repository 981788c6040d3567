"""When a snapshot is published (a refresh, an import, an editor, a correction), record what it changed."""

from django.db.models.signals import post_save
from django.dispatch import receiver

from benchmarks.models import Snapshot


@receiver(post_save, sender=Snapshot, dispatch_uid="reviews_snapshot_published")
def snapshot_published(sender, instance, raw=False, **kwargs):
    if raw or instance.status != Snapshot.Status.PUBLISHED:
        return
    from .tasks import review_after_commit

    # After the commit, in a worker: the comparison renders every live article twice per language.
    review_after_commit(instance.pk)
