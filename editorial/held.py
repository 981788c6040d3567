"""Spanish for English that is not live yet is held until that English is published.

A revision holds both languages, and an editor's unpublished draft may change an English text that
is live. Spanish approved for the draft's English must not reach the live page beside the old
English (an embargoed claim would leak through /es/). So:

- the workspace translates the live English; the draft's English is shown only on request, marked
  as not published (editorial.workspace, `english=draft`);
- approving Spanish whose English differs from the live English at that segment keeps the live
  approved Spanish and stores the new one as *held* (ApprovedSegment.held_text);
- every revision gets, per segment, the held Spanish only if its English is the one the held Spanish
  translates (editorial.spanish.apply_approved_spanish): the live page keeps the old pair, the
  editor's draft and its preview show the new one;
- when that English is published the held Spanish goes live with it (the same revision), and is then
  recorded as the approved Spanish (`promote`, on Wagtail's publish signals).
"""

from wagtail.models import Page

from localized.segments import with_aliases

from .spanish import english_segments, memory_for


def live_object(obj):
    """The object as readers see it: a live page's (or draft-state snippet's) stored row; an object
    never published has no live English, so its newest revision is what gets translated."""
    stored = type(obj)._default_manager.filter(pk=obj.pk).first() if obj.pk else None
    if stored is None:
        return obj
    if isinstance(stored, Page):
        stored = stored.specific
    if getattr(stored, "live", True):
        return stored
    latest = getattr(stored, "get_latest_revision_as_object", None)
    return latest() if latest is not None else stored


def sources_of(obj):
    """{segment key: English} of `obj` (positional aliases included)."""
    segments = english_segments(obj)
    sources = {segment.key: segment.source for segment in segments}
    sources.update({segment.alias: segment.source for segment in segments if segment.alias})
    return sources


def live_sources(obj):
    """{segment key: English} of the live object."""
    return sources_of(live_object(obj))


def is_held(live, draft, key, english):
    """Whether Spanish translating `english` at `key` must wait: that English exists only in the
    editor's draft. A key the live object does not have cannot show on it, and Spanish written for
    English that has since changed is an outdated translation like any other: both are approved as
    usual."""
    return key in live and live[key] != english and draft.get(key) == english


def with_held(obj, translations, approved):
    """`translations` ({key: Spanish}) with the held Spanish of each segment whose English in `obj`
    is the English it translates."""
    held = {key: segment for key, segment in approved.items() if segment.held_source_text}
    if not held:
        return translations
    segments = english_segments(obj)
    held = with_aliases(held, segments)
    for segment in segments:
        waiting = held.get(segment.key)
        if waiting is not None and waiting.held_source_text == segment.source:
            translations[segment.key] = waiting.held_text
    return translations


def held_view(approved, english):
    """The approved segment as the workspace shows it next to `english`: the held Spanish when it
    translates that English (an unsaved copy), else the approved segment itself."""
    if approved is None or not approved.held_source_text or approved.held_source_text != english:
        return approved
    return type(approved)(
        memory_id=approved.memory_id, key=approved.key, text=approved.held_text,
        source_text=approved.held_source_text, approved_by_id=approved.approved_by_id,
    )


def promote(instance):
    """After `instance` was published: held Spanish whose English is now live becomes the approved
    Spanish (the published revision already carried it)."""
    memory = memory_for(instance, create=False)
    if memory is None:
        return
    waiting = list(memory.segments.exclude(held_source_text=""))
    if not waiting:
        return
    sources = live_sources(instance)
    for segment in waiting:
        if sources.get(segment.key) == segment.held_source_text:
            segment.text, segment.source_text = segment.held_text, segment.held_source_text
            segment.held_text = segment.held_source_text = ""
            segment.save(update_fields=["text", "source_text", "held_text", "held_source_text", "approved_at"])


def on_published(sender, instance, **kwargs):
    promote(instance.specific if isinstance(instance, Page) else instance)
