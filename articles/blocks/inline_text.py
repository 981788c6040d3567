"""A data block's own words (captions, notes): one line of rich text, so that a sentence in it can be
a checked statement (issue 24) and a note can hold a live figure, like paragraphs and card texts.

These children were plain CharBlocks. Their stored values were converted by migration 0019; a
value written as plain words since (demo content, a preset, an import) is read as those words,
escaped, never as markup.
"""

import html

from django.utils.html import escape, strip_tags
from wagtail import blocks

# A caption is also read as plain text (a table's accessible name, a chart's SVG <title>, the CSV
# link), where a live figure could not print; a note is printed once, under its chart.
CAPTION_FEATURES = ["bold", "italic", "statement"]
NOTE_FEATURES = ["bold", "italic", "link", "dataref", "statement"]


def plain_to_rich(text):
    """Plain words, as a CharBlock stored them, as the rich text that prints the same words.
    Unescaping first makes this idempotent on words a serializer already escaped ("A &amp; B")."""
    text = (text or "").strip()
    return f"<p>{escape(html.unescape(text))}</p>" if text else ""


def is_blank(value):
    """Rich text that prints nothing ("<p></p>", what an emptied editor may post): no words, no figure."""
    return isinstance(value, str) and "<embed" not in value and not strip_tags(value).strip()


def readable(value):
    if is_plain(value):
        return plain_to_rich(value)
    return "" if is_blank(value) else value


def is_plain(value):
    # What Wagtail's editor and the translation serializer write always starts with an element.
    return isinstance(value, str) and not value.lstrip().startswith("<")


class InlineTextBlock(blocks.RichTextBlock):
    def __init__(self, features=None, **kwargs):
        super().__init__(features=features or CAPTION_FEATURES, **kwargs)

    # An empty caption must stay empty (so the block's own caption prints), whatever shape it came in.
    def to_python(self, value):
        return super().to_python(readable(value))

    def normalize(self, value):
        return super().normalize(readable(value))

    def value_from_form(self, value):
        return super().value_from_form(readable(value))


def caption_block(**kwargs):
    return InlineTextBlock(required=False, **kwargs)


def note_block(**kwargs):
    return InlineTextBlock(features=NOTE_FEATURES, required=False, **kwargs)


def caption_text(value, data):
    """A caption as plain text, with any statement that no longer holds left out (where a mark
    cannot be shown: an accessible name, a <title>, a download's name). "" when the caption is empty."""
    from articles.statements.markup import checked_plain_text

    return checked_plain_text(value.source, data) if value else ""
