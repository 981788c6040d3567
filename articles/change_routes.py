"""The article's public change log and its Atom feed, as routes of the article (a RoutablePage).

/en/<slug>/changes/ and /es/<slug>/cambios/ (the other language's segment redirects, as the data
page's does), paginated with ?page=N (declared in ArticlePage.query_parameters, so the page cache
keys each page of the log apart); …/changes/feed/ and …/cambios/feed/ are the Atom feeds. Both are
pages under the language prefix, so the page cache keeps them with the article. The review task
records a publication's changes in a worker, after the publication bumped the data generation: a
copy cached in between lists them once it expires (PAGE_CACHE_SECONDS, as a CDN's copy would).
They read a few rows, not the article's figures: no stored rendering is needed.
"""

from django.conf import settings
from django.core.paginator import Paginator
from wagtail.contrib.routable_page.models import re_path

from localized.alternates import has_language_version, translated_url

from . import change_log
from .data_routes import in_page_language_of, segment_in

CHANGES_SEGMENTS = {"en": "changes", "es": "cambios"}
SEGMENT = "(?P<segment>" + "|".join(CHANGES_SEGMENTS.values()) + ")"
CHANGES_ROUTES = {"changes", "changes_feed"}


def changes_segment(language=None):
    return segment_in(CHANGES_SEGMENTS, language)


in_page_language = in_page_language_of(CHANGES_SEGMENTS)


class ArticleChangeRoutesMixin:
    def reverse_subpage(self, name, args=None, kwargs=None):
        if name in CHANGES_ROUTES:
            kwargs = {"segment": changes_segment(), **(kwargs or {})}
        return super().reverse_subpage(name, args=args, kwargs=kwargs)

    def change_log_versions(self, request):
        """[{language, path, url}]: the change log in each language the article has a version in."""
        versions = []
        for code, _name in settings.LANGUAGES:
            if has_language_version(self, code):
                page_path = translated_url(self, code, request)
                if page_path:
                    path = f"{page_path}{changes_segment(code)}/"
                    versions.append({"language": code, "path": path, "url": request.build_absolute_uri(path)})
        return versions

    @re_path(rf"^{SEGMENT}/$", name="changes")
    @in_page_language
    def changes(self, request):
        """Every change of a figure the page shows, newest first, 50 to a page."""
        paginator = Paginator(change_log.page_changes(self), change_log.PER_PAGE)
        page_of_changes = paginator.get_page(request.GET.get("page"))
        versions = self.change_log_versions(request)
        groups = change_log.grouped(page_of_changes.object_list)
        return self.render(
            request,
            template="articles/article_changes.html",
            context_overrides={
                "changes_page": page_of_changes,
                "change_groups": groups,
                "change_versions": versions,
                # The log's own figures, not the page's: a change of a demo source's figure is demo data.
                "shows_demo_data": any(change_set.snapshot.source.is_demo for change_set, _rows in groups),
            },
        )

    @re_path(rf"^{SEGMENT}/feed/$", name="changes_feed")
    @in_page_language
    def changes_feed(self, request):
        from .feeds import ArticleChangesFeed

        return ArticleChangesFeed()(request, page=self)

    def get_cached_paths(self):
        base = f"/{changes_segment()}/"
        return super().get_cached_paths() + [base, f"{base}feed/"]
