"""A page's source list rows saved only when they changed.

Saving a page makes modelcluster save every row of its source list (one UPDATE each: 18 of the ~150
queries a publish of the demo article costs) whether or not anything in the row changed. Before the
save, the rows' stored values are read in one query; a row whose page, source and position are
the same is then left alone.
"""

FIELDS = ("page_id", "source_id", "sort_order")
UNCHANGED = "_stored_unchanged"


def mark_unchanged_rows(page, relation="page_sources"):
    """Flag the page's pending rows that match their stored row (call before the page's save)."""
    pending = getattr(page, "_cluster_related_objects", {}).get(relation)
    if not page.pk or not pending:
        return
    model = type(pending[0])
    stored = {row[0]: row[1:] for row in model.objects.filter(page_id=page.pk).values_list("pk", *FIELDS)}
    for item in pending:
        current = (page.pk, item.source_id, item.sort_order)
        setattr(item, UNCHANGED, item.pk is not None and stored.get(item.pk) == current)


def before_page_save(sender, instance, raw=False, update_fields=None, **kwargs):
    # modelcluster saves the rows right after the page's own row (ClusterableModel.save).
    if not raw and (update_fields is None or "page_sources" in update_fields):
        mark_unchanged_rows(instance)


def connect(page_model):
    # A signal, not a save() override: wagtail-modeltranslation wraps each page class's own save(),
    # and a second wrapper runs its slug and site-root checks twice (seven more queries a publish).
    from django.db.models.signals import pre_save

    pre_save.connect(before_page_save, sender=page_model, dispatch_uid="article-source-rows")


def skip_save(item, kwargs):
    """Whether this row's save would write what is stored already (and is not a forced insert)."""
    return getattr(item, UNCHANGED, False) and not kwargs.get("force_insert") and not kwargs.get("update_fields")
