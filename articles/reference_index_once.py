"""One reference-index update per object a publish saves, not one per row it saves.

Wagtail updates the reference index on every post_save of a tracked model, and a child row (an
ArticlePage's `page_sources`, a snippet's inline rows) reindexes its whole parent: publishing the demo
article saved the page and its 18 source rows, and so rebuilt the page's references 19 times, each
walking both bodies' blocks and looking up every chosen model, source and endpoint (some 300 of the
edit view's ~490 queries). Inside `one_update_per_object()` those saves are noted instead, and each
object is indexed once when the block ends, after the last row is saved and inside the same
transaction, through the same task Wagtail would have run.
"""

import contextlib

from django.db.models.signals import post_save
from modelcluster.fields import ParentalKey
from wagtail.models import ReferenceIndex
from wagtail.signal_handlers import reference_index_auto_update_disabled
from wagtail.tasks import update_reference_index_task


def _root(instance):
    """(app_label, model_name, pk) of the object whose references this save changes, without a query."""
    model, pk = type(instance), instance.pk
    while True:
        parental = [field for field in model._meta.get_fields() if isinstance(field, ParentalKey)]
        if not parental:
            return model._meta.app_label, model._meta.model_name, str(pk)
        # A child row's parent id sits on the row; following it is what Wagtail's task does too.
        pk = getattr(instance, parental[0].attname)
        if pk is None:
            return None
        model = parental[0].related_model
        instance = model(pk=pk) if model is not type(instance) else instance


@contextlib.contextmanager
def one_update_per_object():
    if getattr(reference_index_auto_update_disabled, "value", False):
        yield  # the caller turned indexing off (a bulk load): keep it off
        return
    pending = {}

    def note(sender, instance, raw=False, **kwargs):
        if raw or sender not in ReferenceIndex.tracked_models:
            return
        root = _root(instance)
        if root is not None:
            pending.setdefault(root, None)

    post_save.connect(note, weak=False, dispatch_uid=f"reference-index-once-{id(pending)}")
    reference_index_auto_update_disabled.value = True
    try:
        yield
    finally:
        del reference_index_auto_update_disabled.value
        post_save.disconnect(dispatch_uid=f"reference-index-once-{id(pending)}")
    for app_label, model_name, pk in pending:
        update_reference_index_task.enqueue(app_label, model_name, pk)
