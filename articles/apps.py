from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArticlesConfig(AppConfig):
    name = "articles"
    verbose_name = _("Articles")

    def ready(self):
        from . import address_redirects, cache_purge, publishing, source_rows
        from .statements import hold

        address_redirects.connect()
        cache_purge.connect()
        publishing.install()
        hold.connect()
        from .models import ArticlePage

        source_rows.connect(ArticlePage)
