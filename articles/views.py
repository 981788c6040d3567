"""sitemap.xml: every live page once per language version, each entry listing all its hreflang alternates."""

from django.shortcuts import render
from wagtail.models import Site

from editorial.alternates import language_versions


def _site(request):
    return Site.find_for_request(request) or Site.objects.select_related("root_page").get(
        is_default_site=True
    )


def sitemap(request):
    pages = (
        _site(request).root_page.get_descendants(inclusive=True).live().public().order_by("path").specific()
    )
    entries = []
    for page in pages:
        versions = language_versions(page, request)
        lastmod = page.last_published_at or page.latest_revision_created_at
        alternates = [{"language": code, "url": url} for code, url in versions]
        # Google wants each language version as its own <url>, repeating the whole set of alternates.
        entries.extend(
            {"location": url, "lastmod": lastmod, "alternates": alternates} for _code, url in versions
        )
    return render(request, "sitemap.xml", {"entries": entries}, content_type="application/xml; charset=utf-8")
