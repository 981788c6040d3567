"""Chooser blocks whose values an article's edit form looks up in bulk, not one by one.

Wagtail's chooser block looks its value up when the form is read (`value_from_form`) and again
when it is validated (`clean`): two queries per model, source or provider chosen, so publishing
the demo article cost ~170 such queries and every data block added more. The body block reads
every chosen id of the submitted form first and loads each model's values in one query
(`bulk_values`); the chooser blocks take their instances from there.
"""

import copy
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.signals import request_finished, request_started
from wagtail import blocks
from wagtail.snippets.blocks import SnippetChooserBlock

# {model class: {str(pk): instance}} while a submitted body is read.
_loaded = ContextVar("chooser_values_loaded", default=None)
# {model class: {pk: instance}} shared by every lookup while a page is saved or published: Wagtail's
# reference index reads both language bodies, block type by block type, on each save.
_shared = ContextVar("chooser_lookups_shared", default=None)

# Looked up with what their name (__str__) reads, so the editor's chooser shows it without a query.
RELATED = {"benchmarks.endpoint": ("provider", "model")}


def _queryset(model):
    return model._default_manager.select_related(*RELATED.get(model._meta.label_lower, ()))


class BulkSnippetChooserBlock(SnippetChooserBlock):
    def bulk_to_python(self, values):
        shared = _shared.get()
        related = RELATED.get(self.model_class._meta.label_lower)
        if shared is None and not related:
            return super().bulk_to_python(values)
        wanted = [value for value in values if value is not None]
        if shared is None:
            found = _queryset(self.model_class).in_bulk(wanted)
        else:
            # Keyed by str(pk): stored block data may hold an id as a number or as a string.
            known = shared.setdefault(self.model_class, {})
            missing = {str(pk) for pk in wanted} - known.keys()
            if missing:
                loaded = _queryset(self.model_class).in_bulk(list(missing))
                known.update({str(pk): instance for pk, instance in loaded.items()})
                known.update({pk: None for pk in missing - known.keys()})  # gone: not asked again
            found = {pk: copy.copy(known[str(pk)]) for pk in wanted if known.get(str(pk)) is not None}
        return [found.get(value) for value in values]


    def value_from_form(self, value):
        loaded = _loaded.get()
        if loaded is not None and value not in (None, "") and not isinstance(value, self.model_class):
            instance = loaded.get(self.model_class, {}).get(str(value))
            if instance is not None:
                return copy.copy(instance)  # each block its own instance, as bulk_to_python gives
        return super().value_from_form(value)

    def clean(self, value):
        if isinstance(value, self.model_class) and getattr(value, "_loaded_with_form", False):
            # Just loaded from the database for this form: it exists; check only what the field asks.
            self.field.validate(value)
            self.field.run_validators(value)
            return value
        return super().clean(value)


@contextmanager
def shared_chooser_lookups():
    """Within this block, each chosen object is loaded from the database once (see `_shared`)."""
    if _shared.get() is not None:
        yield
        return
    token = _shared.set({})
    try:
        yield
    finally:
        _shared.reset(token)


def chosen_ids(block, data, files, prefix, found):
    """Collect {model class: {raw id}} of every chooser in a submitted block, reading the form keys
    the way the blocks' `value_from_datadict` will (deleted items are skipped)."""
    if isinstance(block, blocks.StreamBlock | blocks.ListBlock):
        try:
            count = int(data.get(f"{prefix}-count", 0))
        except (TypeError, ValueError):
            return
        for i in range(count):
            if data.get(f"{prefix}-{i}-deleted"):
                continue
            if isinstance(block, blocks.StreamBlock):
                child = block.child_blocks.get(data.get(f"{prefix}-{i}-type"))
            else:
                child = block.child_block
            if child is not None:
                chosen_ids(child, data, files, f"{prefix}-{i}-value", found)
    elif isinstance(block, blocks.StructBlock):
        for name, child in block.child_blocks.items():
            chosen_ids(child, data, files, f"{prefix}-{name}", found)
    elif isinstance(block, BulkSnippetChooserBlock):
        value = block.field.widget.value_from_datadict(data, files, prefix)
        if value not in (None, "") and str(value).isdigit():
            found.setdefault(block.model_class, set()).add(str(value))


@contextmanager
def bulk_values(block, data, files, prefix):
    """While reading a submitted body: its chosen values, one query per model."""
    found = {}
    chosen_ids(block, data, files, prefix, found)
    loaded = {}
    for model, ids in found.items():
        instances = _queryset(model).in_bulk([int(pk) for pk in ids])
        for instance in instances.values():
            instance._loaded_with_form = True
        loaded[model] = {str(pk): instance for pk, instance in instances.items()}
    token = _loaded.set(loaded)
    try:
        yield
    finally:
        _loaded.reset(token)



def share_lookups_until_the_request_ends(*args, **kwargs):
    """For a whole request (the page editor's view: the form renders each block type's choosers
    after the view returned, two queries per type and body language): each chosen object loaded
    once. The request's end empties it, so nothing outlives the request that read it."""
    if _shared.get() is None:
        _shared.set({})


def _forget_shared_lookups(**kwargs):
    _shared.set(None)


request_started.connect(_forget_shared_lookups, dispatch_uid="chooser-lookups-request-started")
request_finished.connect(_forget_shared_lookups, dispatch_uid="chooser-lookups-request-finished")
