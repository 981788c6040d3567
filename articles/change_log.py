"""What the public change log and the Atom feeds read, and from whom.

The changes of figures are recorded by the review layer (reviews.FigureChange, written by a worker
after each snapshot is published) and read by its queries (reviews/change_log.py). That layer sits
above the pages, so it registers its reader here at start-up (reviews.apps) and the pages never
import it. Until a reader is registered a call fails loudly: a log that quietly said "no changes"
would hide every recorded one.
"""

from itertools import groupby

from django.core.exceptions import ImproperlyConfigured

PER_PAGE = 50

_reader = None


def use_change_reader(reader):
    """Register the reader of recorded changes: an object with `page_changes(page, language)`,
    `site_changes(language)` and `article_feed_changes(page, language)` (reviews.change_log)."""
    global _reader
    _reader = reader


def _registered():
    if _reader is None:
        raise ImproperlyConfigured("No change log reader registered: is `reviews` in INSTALLED_APPS?")
    return _reader


def page_changes(page, language=None):
    """The page's figure changes in one language, newest publication first, in page order within one."""
    return _registered().page_changes(page, language)


def site_changes(language=None):
    """[(change set, page, [figure changes])] for the newest (change set, live page) pairs."""
    return _registered().site_changes(language)


def article_feed_changes(page, language=None):
    """[(change set, [figure changes])] for the page's newest change sets in one language."""
    return _registered().article_feed_changes(page, language)


def log_page_numbers(page, language=None):
    """{change set id: the page of the article's change log (?page=N) that lists its first row}.

    Read in the log's own order, so a link lands where the paginated log puts the change set."""
    numbers = {}
    rows = page_changes(page, language).values_list("change_set_id", flat=True)
    for position, change_set_id in enumerate(rows):
        numbers.setdefault(change_set_id, position // PER_PAGE + 1)
    return numbers


def change_date(change_set):
    """When readers started seeing the change: the snapshot's publication (the record comes just after)."""
    return change_set.snapshot.published_at or change_set.created_at


def grouped(changes):
    """[(change set, [its figure changes])] keeping the order of `changes` (newest set first)."""
    return [(key, list(rows)) for key, rows in groupby(changes, key=lambda row: row.change_set)]
