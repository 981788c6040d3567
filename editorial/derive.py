"""The Spanish version of an object derived from its English one (segments: localized.segments).

The Spanish StreamField is never edited: it is the English one with each text leaf replaced by its
translation, so both languages always bind the same data. Translations are cleaned again on the way
(rich text through the allow-list serializer), whatever was stored.
"""

import copy

from wagtail import blocks

from localized.segments import (
    RICH,
    TEXT_BLOCKS,
    is_blank,
    list_items,
    text_leaves,
    untranslated_children,
    with_aliases,
)

from .richtext_tokens import stored_translation


def storable(kind, text, english):
    """A translation as it may be stored or put on a page: rich text is cleaned again (English figures
    and link targets kept, the rest as the allow-list serializer writes it); plain text is escaped
    wherever it is shown, so it stays as typed."""
    if kind == RICH and text:
        return stored_translation(text, english)
    return text


def derive_stream(block, raw_en, translations, fallback, path):
    """A deep copy of the English stream JSON with each text leaf replaced by its translation.

    A leaf without one keeps the English text when `fallback` is on, and is emptied otherwise.
    Returns (raw, how many leaves were translated, how many text leaves there are)."""
    raw = copy.deepcopy(raw_en)
    leaves = list(text_leaves(block, raw, path, list(path), ""))
    translations = with_aliases(translations, leaves)
    count = 0
    for leaf in leaves:
        if leaf.key in translations:
            leaf.container[leaf.slot] = storable(leaf.kind, translations[leaf.key], leaf.text)
            count += 1
        elif not fallback:
            leaf.container[leaf.slot] = ""
    return raw, count, len(leaves)


def align_legacy(block, raw_en, raw_es, path):
    """Pair each English text leaf with the Spanish text at the same place of a Spanish body written
    by hand (before the Spanish body was derived): blocks pair by position and type, lists by position.
    A child `X_en` whose Spanish was kept in a sibling `X_es` takes that. Returns {key: Spanish text}."""
    found = {}

    def pair(block, en, es, path):
        if isinstance(block, TEXT_BLOCKS):
            if isinstance(en, str) and not is_blank(en) and isinstance(es, str) and not is_blank(es):
                found["/".join(path)] = es
            return
        if isinstance(block, blocks.StreamBlock):
            for position, (child_en, child_es) in enumerate(zip(en or [], es or [], strict=False), start=1):
                if child_en.get("type") != child_es.get("type"):
                    continue
                child_block = block.child_blocks.get(child_en.get("type"))
                if child_block is not None:
                    pair(child_block, child_en.get("value"), child_es.get("value"),
                         path + [child_en.get("id") or str(position)])
            return
        if isinstance(block, blocks.ListBlock):
            for (key, value_en, _i), (_k, value_es, _j) in zip(list_items(en), list_items(es), strict=False):
                pair(block.child_block, value_en, value_es, path + [key])
            return
        if isinstance(block, blocks.StructBlock) and isinstance(en, dict):
            es = es if isinstance(es, dict) else {}
            skip = untranslated_children(block)
            for name, child in block.child_blocks.items():
                if name in skip:
                    continue
                spanish = es.get(name)
                if name.endswith("_en"):
                    twin = name[:-3] + "_es"
                    spanish = es.get(twin) or en.get(twin) or (spanish if spanish != en.get(name) else None)
                pair(child, en.get(name), spanish, path + [name])

    pair(block, raw_en, raw_es, path)
    return found
