"""Atom feeds of figure changes: one per article (…/changes/feed/, …/cambios/feed/, a route of the
article) and one for the whole site (/en/changes/feed/, /es/cambios/feed/, config/urls.py), each in
the language of its address. An entry is one published snapshot's changes on one page, with the
figures that changed as its content and the page's change log as its link."""

from django.contrib.syndication.views import Feed
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _

from . import change_log


class ChangesFeed(Feed):
    feed_type = Atom1Feed

    def __call__(self, request, *args, **kwargs):
        self.request = request
        return super().__call__(request, *args, **kwargs)

    def get_feed(self, obj, request):
        feed = super().get_feed(obj, request)
        feed.feed["language"] = (translation.get_language() or "en")[:2]
        return feed

    def change_log_url(self, page):
        return page.get_url(self.request) + page.reverse_subpage("changes")

    def item_title(self, item):
        change_set, page, _rows = item
        if change_set.is_correction:
            return _("Correction: figures changed on “%(title)s”") % {"title": page.title}
        return _("Figures changed on “%(title)s”") % {"title": page.title}

    def item_link(self, item):
        change_set, page, _rows = item
        return f"{self.change_log_url(page)}#change-{change_set.pk}"

    def item_guid(self, item):
        change_set, page, _rows = item
        # Stable whatever the slug becomes: the page and the change set, in the feed's language.
        return f"{self.request.build_absolute_uri('/')}{translation.get_language()[:2]}/changes/{page.pk}/{change_set.pk}"

    def item_pubdate(self, item):
        return change_log.change_date(item[0])

    def item_updateddate(self, item):
        return change_log.change_date(item[0])

    def item_description(self, item):
        change_set, _page, rows = item
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

    def items(self, page):
        return [(change_set, page, rows) for change_set, rows in change_log.article_feed_changes(page)]


class SiteChangesFeed(ChangesFeed):
    def title(self):
        return _("Figure changes on LLM API Benchmarks")

    def subtitle(self):
        return _("Every change of a figure a published article shows, newest first.")

    def link(self):
        return f"/{(translation.get_language() or 'en')[:2]}/"

    def feed_url(self):
        return reverse("changes_feed")

    def items(self):
        return change_log.site_changes()
