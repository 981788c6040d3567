"""Translatable text segments of an object, as they are read from its English content.

Only text is translated. A segment is one text leaf of the English content: a translated model
field (title, summary…) or a CharBlock, TextBlock or RichTextBlock inside a StreamField, found by
walking the block definitions. Its key names where it sits (``body/<block id>/<child>/<item id>``),
so it survives reordering. The Spanish version derived from these segments is editorial/derive.py's.

A StructBlock child that is a text block but not prose (an anchor id) is listed in the block's
``Meta.untranslated``; choosers, choices, numbers, URLs and booleans are never segments.
"""

import html
import re
from dataclasses import dataclass
from typing import NamedTuple

from django.utils.html import strip_tags
from wagtail import blocks
from wagtail.fields import RichTextField, StreamField

TEXT_BLOCKS = (blocks.CharBlock, blocks.TextBlock, blocks.RichTextBlock)
PLAIN = "plain"
RICH = "rich"


@dataclass(frozen=True)
class Segment:
    key: str
    kind: str  # PLAIN or RICH
    label: str  # where it sits, for people: "Leaderboard 3 › caption"
    source: str  # the English text
    order: int = 0
    alias: str = ""  # the key with list items by position (see text_leaves)


# Draftail adds a key to each block it saves (<p data-block-key="d4s89">): editor state, not text.
BLOCK_KEY = re.compile(r'\s+data-block-key="[^"]*"')


def is_blank(text):
    return not strip_tags(text or "").strip()


def without_block_keys(html):
    """Rich text as the translator reads it and as it is compared: the first save of a page through
    the rich-text editor adds block keys everywhere, which must not make every translation outdated."""
    return BLOCK_KEY.sub("", html or "")


def rich_text_source(html):
    """A rich text's English as segments give it. A field that became rich text (the summary, a
    card's summary) holds bare text until its first save through the editor wraps it in a
    paragraph: the same words, so the same segment."""
    html = without_block_keys(html)
    if html.strip() and not html.lstrip().startswith("<"):
        html = f"<p>{html}</p>"
    return html


def untranslated_children(block):
    return set(getattr(block.meta, "untranslated", ()) or ())


def list_items(raw):
    """ListBlock items as (key, value): Wagtail stores {"type": "item", "id", "value"}; old data is bare."""
    for index, item in enumerate(raw or []):
        if isinstance(item, dict) and item.get("type") == "item" and "value" in item:
            yield item.get("id") or str(index), item["value"], item
        else:
            yield str(index), item, None


def _label(block):
    return str(block.label or block.name or "")


GIST_WORDS = 6


def _block_label(block, raw, position):
    """A top-level block named by its own words ("Heading · GLM-5.3 output speed"), so its label does
    not change when blocks above it move; by its position only when it holds no text."""
    for leaf in text_leaves(block, raw, [], [], ""):
        words = html.unescape(strip_tags(leaf.text)).split()
        if words:
            gist = " ".join(words[:GIST_WORDS]) + ("…" if len(words) > GIST_WORDS else "")
            return f"{_label(block)} · {gist}"
    return f"{_label(block)} {position}"


class _Leaf(NamedTuple):
    key: str
    alias: str  # the key with list items by position (see text_leaves)
    kind: str
    label: str
    text: str
    container: object  # where the text sits in the stored JSON: container[slot]
    slot: object


def text_leaves(block, raw, path, alias, label, container=None, slot=None):
    """Every text leaf of `raw` (the stored JSON of `block`), as a _Leaf. `alias` is the same path with
    list items named by position: list items stored before Wagtail gave them ids (the demo's, old
    content) get a new random id each time they are loaded until the page is saved, so a translation
    recorded under the positional key is still found under the id the item keeps from then on."""
    if isinstance(block, TEXT_BLOCKS):
        if isinstance(raw, str) and not is_blank(raw):
            rich = isinstance(block, blocks.RichTextBlock)
            yield _Leaf(
                "/".join(path), "/".join(alias), RICH if rich else PLAIN, label,
                rich_text_source(raw) if rich else raw, container, slot,
            )
        return
    if isinstance(block, blocks.StreamBlock):
        for position, child in enumerate(raw or [], start=1):
            child_block = block.child_blocks.get(child.get("type"))
            if child_block is not None:
                step = child.get("id") or str(position)
                yield from text_leaves(
                    child_block, child.get("value"), path + [step], alias + [step],
                    _block_label(child_block, child.get("value"), position), child, "value",
                )
        return
    if isinstance(block, blocks.ListBlock):
        for position, (key, value, item) in enumerate(list_items(raw), start=1):
            yield from text_leaves(
                block.child_block, value, path + [key], alias + [str(position - 1)], f"{label} › {position}",
                *((item, "value") if item is not None else (raw, position - 1)),
            )
        return
    if isinstance(block, blocks.StructBlock):
        skip = untranslated_children(block)
        for name, child in block.child_blocks.items():
            if name not in skip:
                yield from text_leaves(
                    child, (raw or {}).get(name), path + [name], alias + [name], f"{label} › {_label(child)}",
                    raw, name,
                )


def with_aliases(mapping, segments):
    """`mapping` ({key: anything}) with an entry for each segment whose key is missing but whose
    positional alias is there (see text_leaves)."""
    resolved = dict(mapping)
    for segment in segments:
        if segment.key not in resolved and segment.alias and segment.alias in mapping:
            resolved[segment.key] = mapping[segment.alias]
    return resolved


def field_kind(field):
    return RICH if isinstance(field, RichTextField) else PLAIN


def raw_stream(value):
    """The stored JSON of a StreamField value (a list), whatever form the attribute holds."""
    if value is None:
        return []
    if hasattr(value, "get_prep_value"):
        return value.get_prep_value()
    return list(value)


def segments_of(obj, fields, source_language="en"):
    """The segments of `obj`'s `fields` (modeltranslation field names) in their English text, in order."""
    found = []
    for name in fields:
        field = type(obj)._meta.get_field(name)
        value = getattr(obj, f"{name}_{source_language}", None)
        if isinstance(field, StreamField):
            for leaf in text_leaves(field.stream_block, raw_stream(value), [name], [name], ""):
                found.append(Segment(leaf.key, leaf.kind, leaf.label.strip(" ›"), leaf.text, len(found), leaf.alias))
        elif not is_blank(str(value or "")):
            kind = field_kind(field)
            text = rich_text_source(str(value)) if kind == RICH else str(value)
            found.append(Segment(name, kind, str(field.verbose_name), text, len(found)))
    return found
