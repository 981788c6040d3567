"""Atom feeds of figure changes: one per article (…/changes/feed/, …/cambios/feed/, a route of the
article) and one for the whole site (/en/changes/feed/, /es/cambios/feed/, config/urls.py), each in
the language of its address. An entry is one published snapshot's changes on one page, with the
figures that changed as its content and, as its link, the page of the article's change log that
lists it.

Ids are URNs, not addresses: a reader's feed client keys what it has shown on them, so they must not
move with the host the feed was fetched from (127.0.0.1, a CDN, the public name), a renamed slug or a
change log that grows by a page."""

import copy
import uuid

from django.contrib.syndication.views import Feed
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _

from . import change_log

# Fixed for good: changing it changes every id, and feed readers would show every entry again as new.
ID_NAMESPACE = uuid.UUID("3af00157-00c0-4c44-9c70-6cad2576c7c5")


def _language():
    return (translation.get_language() or "en")[:2]


def permanent_id(*parts):
    return f"urn:uuid:{uuid.uuid5(ID_NAMESPACE, '/'.join(str(part) for part in parts))}"


def entry_id(change_set, page, language):
    """The same in the article's feed and the site's: both list the same entry."""
    return permanent_id("change", change_set.pk, page.pk, language)


class ChangesFeed(Feed):
    feed_type = Atom1Feed

    def author_name(self):
        # RFC 4287 §4.1.1: a feed whose entries name no author names one itself (the publisher).
        from django.conf import settings

        return settings.WAGTAIL_SITE_NAME

    def __call__(self, request, *args, **kwargs):
        # The site feed is one instance for every request (config/urls.py): each request works on its
        # own copy, so no thread reads another request's host or language.
        feed = copy.copy(self)
        feed.request = request
        return super(ChangesFeed, feed).__call__(request, *args, **kwargs)

    def get_feed(self, obj, request):
        feed = super().get_feed(obj, request)
        feed.feed["language"] = _language()
        return feed

    def change_log_url(self, page):
        return page.get_url(self.request) + page.reverse_subpage("changes")

    def entries(self, pairs):
        """[(change set, page, rows, page of the log that lists it)] for [(change set, page, rows)]."""
        log_pages = {}
        items = []
        for change_set, page, rows in pairs:
            if page.pk not in log_pages:
                log_pages[page.pk] = change_log.log_page_numbers(page)
            items.append((change_set, page, rows, log_pages[page.pk].get(change_set.pk, 1)))
        return items

    def item_title(self, item):
        change_set, page, _rows, _number = item
        if change_set.is_correction:
            return _("Correction: figures changed on “%(title)s”") % {"title": page.title}
        return _("Figures changed on “%(title)s”") % {"title": page.title}

    def item_link(self, item):
        change_set, page, _rows, number = item
        query = f"?page={number}" if number > 1 else ""
        return f"{self.change_log_url(page)}{query}#change-{change_set.pk}"

    def item_guid(self, item):
        change_set, page, _rows, _number = item
        return entry_id(change_set, page, _language())

    def item_pubdate(self, item):
        return change_log.change_date(item[0])

    def item_updateddate(self, item):
        return change_log.change_date(item[0])

    def item_description(self, item):
        change_set, _page, rows, _number = item
        return render_to_string(
            "articles/includes/change_feed_entry.html", {"change_set": change_set, "changes": rows}
        )


class ArticleChangesFeed(ChangesFeed):
    def get_object(self, request, page):
        return page

    def title(self, page):
        return _("Figure changes: %(title)s") % {"title": page.title}

    def subtitle(self, page):
        return _("Every change of a figure this article shows, newest first.")

    def link(self, page):
        return self.change_log_url(page)

    def feed_url(self, page):
        return page.get_url(self.request) + page.reverse_subpage("changes_feed")

    def feed_guid(self, page):
        return permanent_id("article-feed", page.pk, _language())

    def items(self, page):
        return self.entries(
            (change_set, page, rows) for change_set, rows in change_log.article_feed_changes(page)
        )


class SiteChangesFeed(ChangesFeed):
    def title(self):
        return _("Figure changes on LLM API Benchmarks")

    def subtitle(self):
        return _("Every change of a figure a published article shows, newest first.")

    def link(self):
        return f"/{_language()}/"

    def feed_url(self):
        return reverse("changes_feed")

    def feed_guid(self):
        return permanent_id("site-feed", _language())

    def items(self):
        return self.entries(change_log.site_changes())
