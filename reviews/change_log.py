"""The queries behind the public change log and the Atom feeds (registered as the pages' reader in
reviews.apps, see articles/change_log.py): every recorded change of a figure a live page
shows (reviews.FigureChange, written by a worker after each snapshot is published), in the page's
language, newest first, with the snapshot and source it came from.

The rows are the ones editors review (reviews/changes.py); readers see the same "was → now" the
editors do, as soon as it is recorded. A change set lists every page it touched, so one query
serves any number of changes: the snapshot and its source come joined, the large raw payload left
behind.
"""

from django.utils import translation

from articles.change_log import grouped

from .models import ChangeSet, FigureChange

FEED_ENTRIES = 20


def _language():
    return (translation.get_language() or "en")[:2]


def _with_snapshot(queryset, prefix):
    return queryset.select_related(f"{prefix}snapshot__source").defer(f"{prefix}snapshot__raw_payload")


def page_changes(page, language=None):
    """The page's figure changes in one language, newest publication first, in page order within one."""
    queryset = FigureChange.objects.filter(page_id=page.pk, language=language or _language())
    return _with_snapshot(queryset, "change_set__").order_by(
        "-change_set__created_at", "-change_set_id", "block_index", "pk"
    )


def site_changes(language=None, limit=FEED_ENTRIES):
    """[(change set, page, [figure changes])] for the newest `limit` (change set, live page) pairs."""
    from articles.models import ArticlePage

    language = language or _language()
    live = ArticlePage.objects.live().public()
    pairs = list(
        FigureChange.objects.filter(language=language, page__in=live.values("pk"))
        .values_list("change_set_id", "page_id")
        .distinct()
        .order_by("-change_set_id", "page_id")[:limit]
    )
    if not pairs:
        return []
    pages = {page.pk: page for page in live.filter(pk__in={page for _set, page in pairs})}
    pages = {pk: page for pk, page in pages.items() if page.has_body_in(language)}
    sets = {
        change_set.pk: change_set
        for change_set in _with_snapshot(ChangeSet.objects.filter(pk__in={cs for cs, _page in pairs}), "")
    }
    items = {}
    for row in FigureChange.objects.filter(
        language=language, change_set_id__in=sets, page_id__in=pages
    ).order_by("block_index", "pk"):
        items.setdefault((row.change_set_id, row.page_id), []).append(row)
    return [
        (sets[cs], pages[page], items[(cs, page)])
        for cs, page in pairs
        if page in pages and (cs, page) in items
    ]


def article_feed_changes(page, language=None, limit=FEED_ENTRIES):
    """[(change set, [figure changes])] for the page's newest `limit` change sets in one language."""
    language = language or _language()
    set_ids = list(
        FigureChange.objects.filter(page_id=page.pk, language=language)
        .values_list("change_set_id", flat=True)
        .distinct()
        .order_by("-change_set_id")[:limit]
    )
    return grouped(page_changes(page, language).filter(change_set_id__in=set_ids))
