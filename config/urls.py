from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from wagtail import urls as wagtail_urls
from wagtail.admin import urls as wagtailadmin_urls
from wagtail.contrib.sitemaps.views import sitemap
from wagtail.documents import urls as wagtaildocs_urls

from articles.feeds import SiteChangesFeed
from articles.page_create_view import CreateWithoutAutosaveView
from articles.robots import robots_txt
from articles.sitemap import PageSitemap

urlpatterns = [
    # Ahead of Wagtail's own route for the same URL (articles/page_create_view.py says why).
    path(
        "admin/pages/add/<slug:content_type_app_name>/<slug:content_type_model_name>/<int:parent_page_id>/",
        CreateWithoutAutosaveView.as_view(),
    ),
    path("admin/", include(wagtailadmin_urls)),
    path("documents/", include(wagtaildocs_urls)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("sitemap.xml", sitemap, {"sitemaps": {"pages": PageSitemap}}, name="sitemap"),
    path("robots.txt", robots_txt, name="robots_txt"),
]

if settings.DEBUG:
    from django.conf.urls.static import static
    from django.contrib.staticfiles.urls import staticfiles_urlpatterns

    urlpatterns += staticfiles_urlpatterns()
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

# Every public page lives under /en/ or /es/; "/" is redirected by LocaleMiddleware
# according to the browser's Accept-Language.
# The site-wide feed of figure changes has a translated address (/en/changes/feed/, /es/cambios/feed/),
# ahead of Wagtail's catch-all: a page slugged "changes" at the top could not have a "feed" child anyway.
urlpatterns += i18n_patterns(
    path(_("changes/feed/"), SiteChangesFeed(), name="changes_feed"),
    path("", include(wagtail_urls)),
    prefix_default_language=True,
)
