"""The article's data page and its downloads, as routes of the article (a RoutablePage).

The segment is translated like the slugs: /en/<slug>/data/, /es/<slug>/datos/. The other language's
segment answers with a permanent redirect to the page language's one, so an old /es/<slug>/data/ link
keeps working and search engines see one address per language.

The files have no dotted names: Wagtail serves only paths of word characters and hyphens ending in
"/" (wagtail.urls serve_pattern), so the name with its extension comes in Content-Disposition:
…/data/csv/ (every figure), …/data/json/, …/data/csv/<block id>/ (one table, chart or leaderboard).
All of them are pages under the language prefix, so the page cache (config/page_cache.py) keeps and
invalidates them with the article: its key holds the data and page generations.
"""

from functools import wraps

from django.conf import settings
from django.http import Http404, HttpResponsePermanentRedirect
from django.utils import translation
from django.utils.translation import gettext as _
from wagtail.contrib.routable_page.models import re_path

from editorial.alternates import has_language_version, translated_url

from . import downloads
from .figures import page_figures

DATA_SEGMENTS = {"en": "data", "es": "datos"}
SEGMENT = "(?P<segment>" + "|".join(DATA_SEGMENTS.values()) + ")"
BLOCK_ID = r"(?P<block_id>[0-9A-Za-z-]{1,64})"
DATA_ROUTES = {"data_trail", "figures_csv", "figures_json", "block_csv"}


def data_segment(language=None):
    language = (language or translation.get_language() or "en")[:2]
    return DATA_SEGMENTS.get(language, DATA_SEGMENTS["en"])


def in_page_language(view):
    """A data route answers only where the article has a version (404 otherwise), under the segment of
    the page language; the other language's segment redirects permanently to it."""

    @wraps(view)
    def route(self, request, segment, **kwargs):
        self._require_language_version(request)
        right = data_segment()
        if segment != right:
            at = request.path.rfind(f"/{segment}/")
            target = request.path[:at] + f"/{right}/" + request.path[at + len(segment) + 2:]
            query = request.META.get("QUERY_STRING")
            return HttpResponsePermanentRedirect(target + (f"?{query}" if query else ""))
        return view(self, request, **kwargs)

    return route


class ArticleDataRoutesMixin:
    def reverse_subpage(self, name, args=None, kwargs=None):
        # `{% routablepageurl page "data_trail" %}` gets the active language's segment without naming it.
        if name in DATA_ROUTES:
            kwargs = {"segment": data_segment(), **(kwargs or {})}
        return super().reverse_subpage(name, args=args, kwargs=kwargs)

    def data_page_versions(self, request):
        """[{language, path, url}]: the data page in each language the article has a version in."""
        versions = []
        for code, _name in settings.LANGUAGES:
            if not has_language_version(self, code):
                continue
            page_path = translated_url(self, code, request)
            if page_path:
                path = f"{page_path}{data_segment(code)}/"
                versions.append({"language": code, "path": path, "url": request.build_absolute_uri(path)})
        return versions

    @re_path(rf"^{SEGMENT}/$", name="data_trail")
    @in_page_language
    def data_trail(self, request):
        """Every figure the page shows, with its value, snapshot and source: the provenance trail."""
        versions = self.data_page_versions(request)
        return self.render(
            request,
            template="articles/article_data_trail.html",
            context_overrides={
                "figures": page_figures(list(self.body), self.page_data),
                "data_versions": versions,
                "language_paths": {version["language"]: version["path"] for version in versions},
            },
        )

    @re_path(rf"^{SEGMENT}/csv/$", name="figures_csv")
    @in_page_language
    def figures_csv(self, request):
        rows = downloads.body_rows(list(self.body), self.page_data)
        return downloads.csv_response(rows, downloads.file_name(self, _("figures"), "csv"))

    @re_path(rf"^{SEGMENT}/json/$", name="figures_json")
    @in_page_language
    def figures_json(self, request):
        rows = downloads.body_rows(list(self.body), self.page_data)
        url = request.build_absolute_uri(self.get_url(request))
        return downloads.json_response(rows, self, url, downloads.file_name(self, _("figures"), "json"))

    @re_path(rf"^{SEGMENT}/csv/{BLOCK_ID}/$", name="block_csv")
    @in_page_language
    def block_csv(self, request, block_id):
        body = list(self.body)
        child = downloads.find_block(body, block_id)
        if child is None:
            raise Http404("no table, chart or leaderboard with this id on the article")
        rows = downloads.body_rows(body, self.page_data, only=block_id)
        name = downloads.file_name(self, downloads.block_file_suffix(child), "csv")
        return downloads.csv_response(rows, name)

    def get_cached_paths(self):
        # Every cached URL of the article in the active language (cache_purge.page_urls asks in each):
        # the page, its data page and the files, so a CDN purge reaches them all.
        base = f"/{data_segment()}/"
        paths = ["/", base, f"{base}csv/", f"{base}json/"]
        paths += [
            f"{base}csv/{child.id}/" for child in self.body if child.id and downloads.offers_download(child.block)
        ]
        return paths
