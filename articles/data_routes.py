"""The article's data page and its downloads, as routes of the article (a RoutablePage).

The segment is translated like the slugs: /en/<slug>/data/, /es/<slug>/datos/. The other language's
segment answers with a permanent redirect to the page language's one, so an old /es/<slug>/data/ link
keeps working and search engines see one address per language.

The files have no dotted names: Wagtail serves only paths of word characters and hyphens ending in
"/" (wagtail.urls serve_pattern), so the name with its extension comes in Content-Disposition:
…/data/csv/ (every figure), …/data/json/, …/data/csv/<block id>/ (one table, chart or leaderboard).
All of them are pages under the language prefix, so the page cache (config/page_cache.py) keeps and
invalidates them with the article: its key holds the data and page generations. On a page-cache miss
they are served from the article's stored rendering while it is exact (articles/prerender.py,
articles/data_route_copies.py; `X-Article-Render: stored|live`), else computed in the request.
"""

from functools import wraps

from django.conf import settings
from django.db.models import F, Func, JSONField, Value
from django.http import Http404, HttpResponse, HttpResponsePermanentRedirect
from django.template.response import TemplateResponse
from django.utils import translation
from django.utils.translation import gettext as _
from wagtail.contrib.routable_page.models import re_path

from localized.alternates import has_language_version, translated_url

from . import downloads, og_image
from .figures import page_figures
from .prerender import HEADER, stored_copies, stored_copy

DATA_SEGMENTS = {"en": "data", "es": "datos"}
SEGMENT = "(?P<segment>" + "|".join(DATA_SEGMENTS.values()) + ")"
BLOCK_ID = r"(?P<block_id>[0-9A-Za-z-]{1,64})"
DATA_ROUTES = {"data_trail", "figures_csv", "figures_json", "block_csv"}


def data_segment(language=None):
    return segment_in(DATA_SEGMENTS, language)


def segment_in(segments, language=None):
    language = (language or translation.get_language() or "en")[:2]
    return segments.get(language, segments["en"])


def in_page_language_of(segments):
    """A route under a translated segment answers only where the article has a version (404
    otherwise), under the segment of the page language; the other language's segment redirects
    permanently to it."""

    def decorate(view):
        @wraps(view)
        def route(self, request, segment, **kwargs):
            self._require_language_version(request)
            right = segment_in(segments)
            if segment != right:
                at = request.path.rfind(f"/{segment}/")
                target = request.path[:at] + f"/{right}/" + request.path[at + len(segment) + 2:]
                query = request.META.get("QUERY_STRING")
                return HttpResponsePermanentRedirect(target + (f"?{query}" if query else ""))
            return view(self, request, **kwargs)

        return route

    return decorate


in_page_language = in_page_language_of(DATA_SEGMENTS)


def _stored_block(block_id):
    # jsonb_extract_path takes the id as a text key (Django's KeyTransform would read an all-digit id
    # as an array index), and only this block's [file name, CSV] leaves the database.
    return Func(F("block_csvs"), Value(block_id), function="jsonb_extract_path", output_field=JSONField())


def _said(response, stored):
    response[HEADER] = "live" if stored is None else "stored"
    return response


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

    def _stored(self, request, field):
        """The exact stored copy (only `field` loaded), or None: the route then computes it here."""
        return None if getattr(request, "is_preview", False) else stored_copy(
            self, translation.get_language(), fields=(field,), request=request
        )

    @re_path(rf"^{SEGMENT}/$", name="data_trail")
    @in_page_language
    def data_trail(self, request):
        """Every figure the page shows, with its value, snapshot and source: the provenance trail."""
        versions = self.data_page_versions(request)
        context = {
            "data_versions": versions,
            "language_paths": {version["language"]: version["path"] for version in versions},
        }
        template = "articles/article_data_trail.html"
        stored = self._stored(request, "data_html")
        if stored is None:
            response = self.render(
                request, template=template,
                context_overrides={"figures": page_figures(list(self.body), self.page_data), **context},
            )
        else:
            # As the article: the stored part holds what reads data; the rest is the page's own fields.
            response = TemplateResponse(
                request, template, {"page": self, "self": self, "request": request, "prerendered": stored, **context}
            )
        return _said(response, stored)

    @re_path(rf"^{SEGMENT}/csv/$", name="figures_csv")
    @in_page_language
    def figures_csv(self, request):
        name = downloads.file_name(self, _("figures"), "csv")
        stored = self._stored(request, "figures_csv")
        if stored is not None:
            return _said(downloads.download_response(stored.figures_csv, "text/csv", name), stored)
        rows = downloads.body_rows(list(self.body), self.page_data)
        return _said(downloads.csv_response(rows, name), stored)

    @re_path(rf"^{SEGMENT}/json/$", name="figures_json")
    @in_page_language
    def figures_json(self, request):
        name = downloads.file_name(self, _("figures"), "json")
        url = request.build_absolute_uri(self.get_url(request))
        stored = self._stored(request, "figures_json")
        if stored is not None:
            text = downloads.json_with_url(stored.figures_json, url)
            return _said(downloads.download_response(text, "application/json", name, as_attachment=False), stored)
        rows = downloads.body_rows(list(self.body), self.page_data)
        return _said(downloads.json_response(rows, self, url, name), stored)

    @re_path(rf"^{SEGMENT}/csv/{BLOCK_ID}/$", name="block_csv")
    @in_page_language
    def block_csv(self, request, block_id):
        stored = None if getattr(request, "is_preview", False) else (
            stored_copies(self, translation.get_language()).values_list("pk", _stored_block(block_id)).first()
        )
        if stored is not None:
            # The stored copy lists every downloadable block of this revision: one it lacks is not there.
            if stored[1] is None:
                raise Http404("no table, chart or leaderboard with this id on the article")
            name, text = stored[1]
            return _said(downloads.download_response(text, "text/csv", name), stored)
        body = list(self.body)
        child = downloads.find_block(body, block_id)
        if child is None:
            raise Http404("no table, chart or leaderboard with this id on the article")
        name = downloads.file_name(self, downloads.block_file_suffix(child), "csv")
        text = downloads.block_csv(body, self.page_data, child)
        return _said(downloads.download_response(text, "text/csv", name), stored)

    # …/<slug>/og.png: config/urls.py hands this dotted address to Wagtail's serve (its own pattern takes
    # only word characters before each "/"), and the page routes it here as "og.png/".
    @re_path(r"^og\.png/$", name="og_image")
    def og_image_png(self, request):
        """The lead chart as a PNG (articles/og_image.py): the stored one while the copy is exact."""
        self._require_language_version(request)
        stored = self._stored(request, "og_image")
        image = bytes(stored.og_image) if stored is not None else og_image.png(self)
        if not image:  # no chart on the article (a stored copy holds b"" then)
            raise Http404("no chart on this article")
        return _said(HttpResponse(image, content_type="image/png"), stored)

    def get_cached_paths(self):
        # Every cached URL of the article in the active language (cache_purge.page_urls asks in each):
        # the page, its data page and the files, so a CDN purge reaches them all.
        base = f"/{data_segment()}/"
        paths = ["/", base, f"{base}csv/", f"{base}json/"]
        paths += [
            f"{base}csv/{child.id}/" for child in self.body if child.id and downloads.offers_download(child.block)
        ]
        if og_image.has_image(self):
            paths.append(og_image.PATH)
        return paths
