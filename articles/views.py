from wagtail.contrib.sitemaps.views import sitemap as wagtail_sitemap


def sitemap(request):
    return wagtail_sitemap(request)
