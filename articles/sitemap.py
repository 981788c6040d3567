"""sitemap.xml: Django's sitemap framework over Wagtail's page list, one <url> per language version.

Wagtail's own Sitemap gives the site's live public pages and their lastmod, but its URL list has one
entry per page; Django's `i18n` + `alternates` give each language version its own <url> carrying the
whole set of hreflang alternates, as search engines want.
"""

from django.conf import settings
from django.contrib.sitemaps import Sitemap as DjangoSitemap
from wagtail.contrib.sitemaps import Sitemap as WagtailSitemap

from localized.alternates import has_language_version


class PageSitemap(WagtailSitemap):
    i18n = True
    alternates = True
    # Django's x-default is the English path without its /en/ prefix, which a Spanish browser gets
    # redirected to /es/<English slug>/ from, and our slugs are translated: it would 404. Ours is the
    # English page itself (as in each page's <head>), added in _urls.
    x_default = False

    def items(self):
        # Unlike Wagtail's, keeps the StreamFields: whether a Spanish version exists depends on the body.
        return list(
            self.get_wagtail_site()
            .root_page.get_descendants(inclusive=True)
            .live()
            .public()
            .order_by("path")
            .specific()
        )

    def get_languages_for_item(self, item):
        return [code for code, _name in settings.LANGUAGES if has_language_version(item, code)]

    def location(self, page):
        # The path only (Django adds scheme and host); translated slug under the active language's prefix.
        return page.get_url_parts(self.request)[2]

    def _urls(self, page, protocol, domain):
        urls = DjangoSitemap._urls(self, page, protocol, domain)
        for url in urls:
            alternates = url["alternates"]
            if len(alternates) > 1:
                alternates.append({"location": alternates[0]["location"], "lang_code": "x-default"})
        return urls
