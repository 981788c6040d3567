"""Conversion between the stored `<embed embedtype="dataref" …/>` and Draftail's DATAREF entity.

In the editor a reference is an immutable token whose text is the current figure: editors and
translators keep or delete it whole, they never retype the number.
"""

from django.core.cache import cache
from django.utils import translation
from draftjs_exporter.dom import DOM
from wagtail.admin.rich_text.converters.html_to_contentstate import (
    KEEP_WHITESPACE,
    InlineEntityElementHandler,
)

from benchmarks.cache import data_generation

from .refs import ATTRIBUTES, EMBED_TYPE, DataRef, InvalidReference
from .resolve import describe_with_lookups, format_resolved, resolve_for_page

ENTITY_TYPE = "DATAREF"
# An editor page can hold dozens of tokens; each costs a few queries to resolve and name. Keyed on
# the data generation, so a refresh shows new figures at once (a renamed endpoint may lag a little).
TOKEN_CACHE_SECONDS = 600


def token(ref):
    """(text, label) of a reference's editor token: today's figure, and what it is."""
    key = f"datarefs:token:{data_generation()}:{translation.get_language()}:{ref.key}"
    cached = cache.get(key)
    if cached is None:
        resolved = resolve_for_page([ref])[ref.key]
        cached = (format_resolved(resolved), describe_with_lookups(ref))
        cache.set(key, cached, TOKEN_CACHE_SECONDS)
    return tuple(cached)


def entity_data(ref):
    """The entity's data: the stored attributes, plus the token text and a description."""
    text, label = token(ref)
    return {**ref.as_attrs(), "text": text, "label": label}


class DatarefElementHandler(InlineEntityElementHandler):
    mutability = "IMMUTABLE"

    def get_attribute_data(self, attrs):
        try:
            return entity_data(DataRef.from_attrs(attrs))
        except InvalidReference as error:
            kept = {name: attrs[name] for name in ATTRIBUTES if attrs.get(name)}
            return {**kept, "text": "?", "label": str(error)}

    def handle_starttag(self, name, attrs, state, contentstate):
        super().handle_starttag(name, attrs, state, contentstate)
        # The stored element is empty: the entity's text is the figure it shows today.
        entity = contentstate.entity_map[state.current_entity_ranges[-1].key]
        state.current_block.text += entity.data.pop("text")
        state.leading_whitespace = KEEP_WHITESPACE


def dataref_entity_decorator(props):
    """DATAREF entity -> stored element. The token's text is dropped: it is rendered live."""
    attrs = {"embedtype": EMBED_TYPE}
    attrs.update({name: str(props[name]) for name in ATTRIBUTES if props.get(name) not in (None, "")})
    return DOM.create_element("embed", attrs)
