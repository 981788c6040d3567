"""Where an editor fixes a sentence the review lists: the exact place, not the top of a long editor.

English words are edited in the page editor: Wagtail 8 gives each block of a StreamField (and each
item of a list inside one) a panel whose id is `block-<id>-section`, and on load scrolls to the panel
the address's fragment names (a field's panel is `panel-child-content-<field>-section`). Spanish
words are edited in the translation workspace, one textarea per segment of the English (`text-<n>`,
n its position in the list: editorial.workspace_rows), never in the page editor, whose Spanish body
is derived from those segments. (The workspace hides a rich segment's textarea behind its editor;
reviews.wagtail_hooks brings that editor into view for such an address.)
"""

import re

from django.urls import reverse

from articles.statements.markup import statements_in_html
from localized.segments import rich_text_source, text_leaves

SOURCE_LANGUAGE = "en"


def _same_words(a, b):
    return re.sub(r"\s+", " ", a or "").strip() == re.sub(r"\s+", " ", b or "").strip()


def _holds(html, words):
    # The review stores a statement's words cut at 300 characters (FigureChange.figure).
    return any(_same_words(found[:300], words) for _claim, found in statements_in_html(html))


def sentence_leaf(page, language, words, block_index=None):
    """(key, alias) of the text that holds the statement with these words in the page's `language`:
    ("summary", "summary") for the summary, a segment path ("body/<block id>/cards/<item id>/strengths")
    for a text of the body; None when no text holds it now (the page changed since the review)."""
    if _holds(rich_text_source(getattr(page, f"summary_{language}", "") or ""), words):
        return "summary", "summary"
    body = getattr(page, f"body_{language}", None)
    if body is None:
        return None
    stream_block = type(page)._meta.get_field("body").stream_block
    # The stored JSON, not a re-serialisation: list items stored without an id (the demo's cards) get
    # a new random one at each load, and a link must not name an id the editor will not have.
    raw = list(body.raw_data)
    leaves = [leaf for leaf in text_leaves(stream_block, raw, ["body"], ["body"], "") if _holds(leaf.text, words)]
    # The block the review recorded first: the same words may sit in two blocks.
    at = raw[block_index].get("id") if block_index is not None and block_index < len(raw) else None
    leaves.sort(key=lambda leaf: leaf.key.split("/")[1] != at)
    return (leaves[0].key, leaves[0].alias) if leaves else None


def editor_anchor(key, alias):
    """The page editor's panel for a text: the innermost list item with a stored id, else the block."""
    if key == "summary":
        return f"panel-child-content-summary_{SOURCE_LANGUAGE}-section"
    keys, aliases = key.split("/"), alias.split("/")
    items = [part for part, positional in zip(keys[2:], aliases[2:], strict=True) if part != positional]
    return f"block-{(items or keys[1:2])[-1]}-section"


def live_segments(page):
    """The segments the workspace lists for a page, in its order: the live English's."""
    from editorial.held import live_object
    from editorial.spanish import english_segments

    return english_segments(live_object(page))


def workspace_anchor(segments, key, alias):
    """The translation workspace's textarea for the segment at this place, or "" when there is none."""
    for index, segment in enumerate(segments):
        if segment.key == key or (segment.alias and segment.alias == alias):
            return f"text-{index}"
    return ""


def sentence_edit_url(page, language, words, block_index=None, segments=None):
    """Where to edit the sentence with these words on `page` (specific) in `language`. `segments`: the
    page's live_segments(), when the caller has them already."""
    from editorial.workspace_views import workspace_url

    found = sentence_leaf(page, language, words, block_index)
    if language == SOURCE_LANGUAGE:
        url = reverse("wagtailadmin_pages:edit", args=[page.pk])
        return f"{url}#{editor_anchor(*found)}" if found else url
    url = workspace_url(page)
    if found is None:
        return url
    anchor = workspace_anchor(live_segments(page) if segments is None else segments, *found)
    return f"{url}#{anchor}" if anchor else url


def statement_edit_urls(items):
    """{item pk: where to edit its sentence} for the statement items among `items`; each page and its
    segments are read once however many of its sentences are listed."""
    from wagtail.models import Page

    wanted = [item for item in items if item.kind == "statement"]
    pages = {page.pk: page for page in Page.objects.filter(pk__in={item.page_id for item in wanted}).specific()}
    segments = {}
    urls = {}
    for item in wanted:
        page = pages.get(item.page_id)
        if page is None:
            continue
        if item.language != SOURCE_LANGUAGE and page.pk not in segments:
            segments[page.pk] = live_segments(page)
        urls[item.pk] = sentence_edit_url(page, item.language, item.figure, item.block_index, segments.get(page.pk))
    return urls
