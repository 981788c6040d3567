"""Every text a reader sees on an article, as the typed-figure check reads it.

The page's own fields (title, SEO title, search description, summary, publisher disclosure) and
every CharBlock, TextBlock and RichTextBlock inside its body, found by walking the block definitions
rather than by listing fields by name, so a block added later is read too. Each text carries a key
naming where it sits, the same in both languages (the Spanish body is the English one with its text
leaves translated, editorial.derive), so a finding in one language can point at the same field in
the other.
"""

import re
from dataclasses import dataclass

from django.utils.html import strip_tags
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail import blocks
from wagtail.rich_text import get_text_for_indexing
from wagtail.rich_text.rewriters import extract_attrs

REFERENCE = "\ue000"  # stands where a data reference was: a claim next to one is checked
CHECKED = "\ue001"  # stands where a checked statement was: its words are not read, those around it are

DATAREF = re.compile(r"<embed\b[^>]*\bembedtype=\"dataref\"[^>]*/?>", re.IGNORECASE)
# A checked statement: words an editor has tied to the data (<a linktype="statement" …>words</a>).
STATEMENT = re.compile(r"<a\b[^>]*\blinktype=([\"'])statement\1[^>]*>.*?</a>", re.IGNORECASE | re.DOTALL)


def without_checked_statements(html):
    """Rich text with each checked statement's words left out: they are checked already, so neither
    their figures nor their ranking words are flagged. The mark left keeps the words around apart."""
    return STATEMENT.sub(f" {CHECKED} ", html or "")


def rich_text_plain(html):
    """What the check reads of a rich text: its words, a REFERENCE mark where a data reference prints
    a figure (a claim next to one is checked) and a CHECKED mark where a checked statement was."""
    return get_text_for_indexing(DATAREF.sub(f" {REFERENCE} ", without_checked_statements(html)))


def references_in(html):
    """(model id, metric) of each data reference of a rich text, in the order of its REFERENCE marks
    (those inside a checked statement are left out, as the statement is): what a sentence around
    one speaks of, when it names no model or metric itself."""
    from articles.datarefs.refs import DataRef, InvalidReference

    found = []
    for match in DATAREF.finditer(without_checked_statements(html)):
        try:
            ref = DataRef.from_attrs(extract_attrs(match.group(0)))
        except InvalidReference:
            found.append((None, None))
        else:
            found.append((ref.model_id, ref.metric))
    return tuple(found)


@dataclass(frozen=True)
class ProseText:
    place: str  # for the editor: "Provider cards (block 25) › Baseten › strengths"
    text: str
    subject: str | None = None  # the provider a block holding one (a card) is about, named or not
    key: str = ""  # where it sits, the same in both languages: "body/25/cards/1/strengths"
    metric: str | None = None  # the metric of the block it sits in (a chart's, the cards' order)
    refs: tuple = ()  # (model id, metric) of each REFERENCE mark in `text`, in order (references_in)


def texts_in_block(block, value, place, key, subject=None, metric=None):
    """A ProseText for every text a block value stores, whatever the block's nesting."""
    if value is None:
        return
    if isinstance(block, blocks.RichTextBlock):
        yield ProseText(place, rich_text_plain(value.source), subject, key, metric, references_in(value.source))
    elif isinstance(block, blocks.CharBlock | blocks.TextBlock):
        yield ProseText(place, str(value), subject, key, metric)
    elif isinstance(block, blocks.StreamBlock):
        for n, child in enumerate(value, start=1):
            yield from texts_in_block(
                child.block, child.value, f"{place} › {child.block.label} {n}", f"{key}/{n}", subject, metric
            )
    elif isinstance(block, blocks.StructBlock):
        subject = _provider_name(block, value) or subject
        own_metric = value.get("metric") if "metric" in block.child_blocks else None
        metric = own_metric if isinstance(own_metric, str) and own_metric else metric
        for name, child_block in block.child_blocks.items():
            yield from texts_in_block(
                child_block, value.get(name), f"{place} › {child_block.label}", f"{key}/{name}", subject, metric
            )
    elif isinstance(block, blocks.ListBlock):
        parent = place.rsplit(" › ", 1)[0]
        for n, item in enumerate(value, start=1):
            # An item holding one provider (a card) is named by it: "Provider cards › Baseten".
            name = _provider_name(block.child_block, item)
            item_place = f"{parent} › {name}" if name else f"{place} {n}"
            yield from texts_in_block(block.child_block, item, item_place, f"{key}/{n}", subject, metric)


def _provider_name(block, value):
    if not isinstance(block, blocks.StructBlock) or "provider" not in block.child_blocks or value is None:
        return None
    return getattr(value.get("provider"), "name", None)


def body_prose(stream, field="body"):
    """A ProseText for every text of a body StreamField value (or its list of bound blocks)."""
    for n, child in enumerate(stream, start=1):
        place = _("%(place)s (block %(n)s)") % {"place": child.block.label, "n": n}
        yield from texts_in_block(child.block, child.value, place, f"{field}/{n}")


# The search description stays an editor's override of the description built from the checked
# summary (ArticlePage.meta_description): some pages need a shorter line for results than their
# summary. It is plain text, so it can never hold a checked statement, and a claim typed there would
# not be marked or left out when the data changes: it is read here like any other field, so such a
# claim is flagged for the editor to move into the summary as a statement (or to delete).
PAGE_FIELDS = (
    ("title", gettext_lazy("Title")),
    ("seo_title", gettext_lazy("SEO title")),
    ("search_description", gettext_lazy("Search description")),
    ("summary", gettext_lazy("Summary")),
    ("publisher_disclosure", gettext_lazy("Publisher disclosure")),
)
RICH_PAGE_FIELDS = ("summary", "publisher_disclosure")


def page_field_prose(page, lang):
    """The page's own text fields in `lang`: a reader sees them in results, shares and the page head,
    where a stale figure is as false as in the body."""
    for name, place in PAGE_FIELDS:
        text = getattr(page, f"{name}_{lang}", None)
        if not text:
            continue
        if name in RICH_PAGE_FIELDS:  # paragraphs kept apart, so their sentences stay apart
            yield ProseText(str(place), rich_text_plain(str(text)), key=name, refs=references_in(str(text)))
        else:
            yield ProseText(str(place), strip_tags(without_checked_statements(str(text))), key=name)
