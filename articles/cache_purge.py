"""Purging cached pages: our Redis page cache (config/page_cache.py) and, when one is configured, a
CDN in front of the site (Wagtail's frontend cache, settings.WAGTAILFRONTENDCACHE; see README).

Any page change bumps the page generation: menus and index pages list other pages, so one
publish can change several URLs, and a generation bump is one Redis call whatever the site's size.
The CDN is purged URL by URL, in every language: our slugs are translated (/en/fastest-llm-api/ vs
/es/api-llm-mas-rapida/), so Wagtail's own prefix swap (WAGTAILFRONTENDCACHE_LANGUAGES) would purge
URLs that do not exist.
"""

import logging

from django.conf import settings
from django.db import models, transaction
from django.db.models.signals import post_delete
from django.utils import translation
from wagtail.models import Page
from wagtail.signals import page_published, page_unpublished, post_page_move

from benchmarks.cache import data_generation_bumped, dependencies_bumped, mark_reflected
from benchmarks.versioning import bump_content_version, database_state, page_key
from config.page_cache import bump_page_generation

logger = logging.getLogger(__name__)


def cdn_configured():
    return bool(getattr(settings, "WAGTAILFRONTENDCACHE", None))


def page_urls(pages):
    """Every cached URL of these pages, in every language (the article, its data page and its figure files)."""
    urls = []
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for page in pages:
                base = page.get_full_url()
                if base:
                    urls += [base + path.lstrip("/") for path in page.specific_deferred.get_cached_paths()]
    return list(dict.fromkeys(urls))


def purge_cdn(pages):
    """Queue the CDN purge of these pages' URLs; when the broker is down, purge here instead (slower,
    but a CDN never keeps serving an old page because Redis was away)."""
    if not cdn_configured():
        return
    from .tasks import purge_cdn_urls

    urls = page_urls(pages)
    try:
        purge_cdn_urls.delay(urls)
    except Exception as exc:  # kombu/redis errors when the broker is unreachable
        logger.warning("Could not queue the CDN purge of %d URLs (%s); purging them now", len(urls), exc)
        from wagtail.contrib.frontend_cache.utils import purge_urls_from_cache

        try:
            purge_urls_from_cache(urls)
        except Exception:
            logger.exception("The CDN purge failed too: the CDN may serve these URLs until they expire")
    else:
        logger.info("Queued the CDN purge of %d URLs", len(urls))


def _parents_and_self(page):
    return [*page.get_ancestors().filter(depth__gt=1).specific(), page]


def caches_follow(pages=()):
    """After a page change committed: drop every cached copy (one generation bump), purge these pages
    from the CDN and record the database state that is now reflected. Runs with `robust` on_commit:
    what committed is published, so a failure here is logged, never shown to the editor as an error;
    what it could not do, the reconciler (articles/reconcile.py) does within a minute."""
    state = database_state()  # first: a change committed after this read is not claimed as reflected
    bump_page_generation()
    if cdn_configured():
        purge_cdn(pages() if callable(pages) else pages)
    mark_reflected(state)


def page_changed(sender, instance, **kwargs):
    from .tasks import queue_prerender

    # Inside the publish's transaction (articles/publishing.py makes every publish one): stored
    # renderings of the articles that link to this page or sit below it stop matching at its commit,
    # not after it (the page's own rendering names its revision). A move changes the addresses of a
    # whole subtree, which any article may link to: everything.
    moved = "url_path_after" in kwargs
    bump_content_version(None if moved else [page_key(instance.pk)])
    queue_prerender()
    # Now, so this process never serves the old page again, and after commit, so a copy another
    # reader's request cached from the not-yet-committed state in between is dropped as well.
    bump_page_generation()
    # The page and the pages above it, whose listings may show its title.
    transaction.on_commit(lambda: caches_follow(lambda: _parents_and_self(instance)), robust=True)


def page_deleted(sender, instance, **kwargs):
    if isinstance(instance, Page):
        bump_content_version()
        bump_page_generation()
        transaction.on_commit(caches_follow, robust=True)


def data_changed(sender, **kwargs):
    """New figures: the articles whose stored renderings they retired are rendered again."""
    from .tasks import queue_prerender

    queue_prerender()


def showing(keys):
    """Live articles that may show these dependency keys (None: all): those whose stored rendering
    records one of them, and those with no stored rendering (nothing says what they show)."""
    from .models import ArticlePage
    from .prerender import PrerenderedArticle

    articles = ArticlePage.objects.live().public()
    if keys is None:
        return articles
    rendered = PrerenderedArticle.objects.values("page_id")
    return articles.filter(
        models.Q(pk__in=rendered.filter(dependencies__key__in=list(keys))) | ~models.Q(pk__in=rendered)
    ).distinct()


def dependencies_changed(sender, keys=None, **kwargs):
    """A committed change's keys moved (benchmarks.versioning): purge from the CDN the articles, and
    their data pages and files, that show them; a change of unknown reach purges every article."""
    if cdn_configured():
        purge_cdn(showing(keys))


def _replace_wagtails_inline_purge():
    """wagtail.contrib.frontend_cache purges a published page inside the request, with its own guess of
    the other languages' URLs; ours (above) is queued for a worker and knows the translated slugs."""
    from django.apps import apps
    from wagtail.contrib.frontend_cache import signal_handlers as wagtail_handlers

    for model in apps.get_models():
        if issubclass(model, Page):
            page_published.disconnect(wagtail_handlers.page_published_signal_handler, sender=model)
            page_unpublished.disconnect(wagtail_handlers.page_unpublished_signal_handler, sender=model)


def connect():
    _replace_wagtails_inline_purge()
    page_published.connect(page_changed, dispatch_uid="pagecache-published")
    page_unpublished.connect(page_changed, dispatch_uid="pagecache-unpublished")
    post_page_move.connect(page_changed, dispatch_uid="pagecache-moved")
    post_delete.connect(page_deleted, dispatch_uid="pagecache-deleted")
    data_generation_bumped.connect(data_changed, dispatch_uid="pagecache-data")
    dependencies_bumped.connect(dependencies_changed, dispatch_uid="pagecache-dependencies")
