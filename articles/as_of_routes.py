"""Citable versions of an article, as a route of the article (a RoutablePage):
/en/<slug>/as-of/<moment>/ and /es/<slug-es>/as-of/<moment>/, the moment in UTC as
YYYYMMDDTHHMMSSZ (articles/versions.py says what it stands for and how the live revision is found).

The archived version renders the revision that was live at the end of that second, with the data in
force then (PageData's `as_of`, the same rule the review of changed figures reads), under a banner
that links to the current version. It never reads the stored rendering: that holds the current version.

A version never changes once its second is over, so its response may be kept by browsers and CDNs
for a year (`immutable`; config/page_cache.py keeps that header on its copies) and carries noindex:
search engines should list the current page, not each of its past states. A moment before the first
publication, or while the page was withdrawn, is 404. A moment not over yet (the future, or the
current second) redirects, temporarily, to the current version: nothing can be cited there yet.
"""

from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from wagtail.contrib.routable_page.models import re_path

from .data import PageData
from .versions import (
    MOMENT_PATTERN,
    end_of_second,
    live_revision_at,
    parse_moment,
    revision_page,
    revision_sources,
)

ONE_YEAR = 365 * 24 * 60 * 60


class ArticleAsOfRoutesMixin:
    def as_of_address(self, moment):
        return self.reverse_subpage("as_of", kwargs={"moment": moment})

    @re_path(rf"^as-of/(?P<moment>{MOMENT_PATTERN})/$", name="as_of")
    def as_of(self, request, moment):
        start = parse_moment(moment)
        if start is None:
            raise Http404("not a moment: use YYYYMMDDTHHMMSSZ (UTC)")
        until = end_of_second(start)
        if until >= timezone.now():
            response = HttpResponseRedirect(self.get_url(request))
            patch_cache_control(response, no_cache=True)  # the same address will answer itself soon
            return response
        found = live_revision_at(self, until)
        if found is None:
            raise Http404("the article was not published at that moment")
        obj = revision_page(self, found[0])
        language = (translation.get_language() or "en")[:2]
        if not obj.has_body_in(language):
            raise Http404("no version of this article in this language at that moment")
        data = PageData(page=obj, blocks=obj.body, as_of=until, page_sources=revision_sources(obj))
        obj.__dict__["page_data"] = data  # the page's cached property: its data as of then
        obj.as_of_moment, obj.live_page = start, self
        context = {
            "page": obj, "self": obj, "request": request, "page_data": data,
            "as_of_moment": start, "current_url": self.get_url(request),
        }
        response = TemplateResponse(request, "articles/article_as_of.html", context)
        patch_cache_control(response, public=True, max_age=ONE_YEAR, immutable=True)
        return response
