"""A page's statements and their outcomes, for the review task and the hold policy."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from articles.datarefs.refs import rich_texts

from .evaluate import evaluate
from .markup import statements_in_html


@dataclass
class PageStatement:
    block_index: int
    place: str
    claim: object  # None: its conditions are unreadable
    words: str


def statements_in_blocks(blocks):
    """Every statement of a page body (bound stream children), in page order."""
    found = []
    for n, child in enumerate(blocks, start=1):
        place = _("%(block)s (block %(n)s)") % {"block": child.block.label, "n": n}
        for text in rich_texts(child.value):
            for claim, words in statements_in_html(text.source):
                found.append(PageStatement(n - 1, place, claim, words))
    return found


def statements_of_page(page, lang, blocks):
    """The summary's statements (listed first, as the page prints it first), then the body's."""
    summary = getattr(page, f"summary_{lang}", None) or ""
    found = [PageStatement(0, _("Summary"), claim, words) for claim, words in statements_in_html(summary)]
    return found + statements_in_blocks(blocks)


def broken(blocks, data, page=None, lang=None):
    """[(PageStatement, Outcome)] for the statements whose conditions do not hold on `data`."""
    results = []
    statements = statements_of_page(page, lang, blocks) if page is not None else statements_in_blocks(blocks)
    for statement in statements:
        if statement.claim is None:
            continue
        outcome = evaluate(statement.claim, data)
        if not outcome.holds:
            results.append((statement, outcome))
    return results
