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


class ArticleDataRoutesMixin:
    def reverse_subpage(self, name, args=None, kwargs=None):
        # `{% routablepageurl page "data_trail" %}` gets the active language's segment without naming it.
        if name in DATA_ROUTES:
            kwargs = {"segment": data_segment(), **(kwargs or {})}
        return super().reverse_subpage(name, args=args, kwargs=kwargs)

    def _wrong_segment(self, request, segment):
        """A permanent redirect to the page language's segment, or None when `segment` is it."""
        self._require_language_version(request)
        right = data_segment()
        if segment == right:
            return None
        at = request.path.rfind(f"/{segment}/")
        target = request.path[:at] + f"/{right}/" + request.path[at + len(segment) + 2:]
        query = request.META.get("QUERY_STRING")
        return HttpResponsePermanentRedirect(target + (f"?{query}" if query else ""))

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
    def data_trail(self, request, segment):
        """Every figure the page shows, with its value, snapshot and source: the provenance trail."""
        redirect = self._wrong_segment(request, segment)
        if redirect is not None:
            return redirect
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
    def figures_csv(self, request, segment):
        redirect = self._wrong_segment(request, segment)
        if redirect is not None:
            return redirect
        rows = downloads.body_rows(list(self.body), self.page_data)
        return downloads.csv_response(rows, downloads.file_name(self, _("figures"), "csv"))

    @re_path(rf"^{SEGMENT}/json/$", name="figures_json")
    def figures_json(self, request, segment):
        redirect = self._wrong_segment(request, segment)
        if redirect is not None:
            return redirect
        rows = downloads.body_rows(list(self.body), self.page_data)
        url = request.build_absolute_uri(self.get_url(request))
        return downloads.json_response(rows, self, url, downloads.file_name(self, _("figures"), "json"))

    @re_path(rf"^{SEGMENT}/csv/{BLOCK_ID}/$", name="block_csv")
    def block_csv(self, request, segment, block_id):
        redirect = self._wrong_segment(request, segment)
        if redirect is not None:
            return redirect
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
