"""Absolute addresses of our own pages, as the reader reached the site.

An article's head and its "Cite this page" box name pages by absolute address (the Dataset's url and
distribution, og:image, the permanent address of the version being read). They are rendered ahead, by
the pre-render task, without a reader's request: the Wagtail Site's root URL would then be printed,
which under `make run` (a Site of localhost:80, a server on 127.0.0.1:8000) or behind another host name
is an address nobody can open. So they are printed with ORIGIN_SLOT, and config.origin.OriginMiddleware
writes the origin of the request they are sent in (scheme and host, as `canonical` and `og:url` are)
in its place before the response leaves or is cached.
"""

from urllib.parse import urlsplit

ORIGIN_SLOT = "https://origin.invalid"


def page_address(page, request=None):
    """The absolute address of `page` (its path under ORIGIN_SLOT), or None for a page with no URL."""
    url = page.get_url(request)
    if not url:
        return None
    return ORIGIN_SLOT + (urlsplit(url).path if "://" in url else url)
