from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path, re_path
from django.utils.translation import gettext_lazy as _
from wagtail import urls as wagtail_urls
from wagtail import views as wagtail_views
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
# An article's Open Graph image, /<lang>/<slug>/og.png: Wagtail's pattern serves only paths of word
# characters and hyphens ending in "/", so this one hands the dotted path to Wagtail's serve, and the
# article's "og_image" route answers it (articles/data_routes.py).
urlpatterns += i18n_patterns(
    path(_("changes/feed/"), SiteChangesFeed(), name="changes_feed"),
    re_path(r"^((?:[\w\-]+/)+og\.png)$", wagtail_views.serve, name="article_og_image"),
    path("", include(wagtail_urls)),
    prefix_default_language=True,
)
