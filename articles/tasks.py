"""Celery tasks of the articles app."""

import logging

from celery import shared_task
from django.conf import settings

log = logging.getLogger(__name__)


@shared_task(name="articles.tasks.purge_cdn_urls", autoretry_for=(Exception,), retry_backoff=5,
             retry_backoff_max=300, max_retries=6)
def purge_cdn_urls(urls):
    """Ask the CDN (Wagtail's frontend cache backends) to drop these URLs. A worker does it, so a slow
    or failing CDN API never holds an editor's publish or a refresh; failures retry with backoff."""
    from wagtail.contrib.frontend_cache.utils import purge_urls_from_cache

    purge_urls_from_cache(urls)
    return len(urls)


@shared_task(name="articles.tasks.prerender_due")
def prerender_due():
    """Store a fresh rendering of every live article whose stored one is missing, no longer exact or
    about to expire (articles/prerender.py). Queued after each publish and data change, and run by
    beat every ARTICLE_PRERENDER_BEAT_SECONDS so copies are replaced before they expire."""
    from .prerender import due_pages, enabled, prerender

    if not enabled():
        return 0
    pages = due_pages()
    for page_id in pages:
        try:
            prerender(page_id)
        except Exception:  # one broken page must not keep the others from being rendered
            log.exception("could not pre-render article %s; it is rendered for each reader until fixed", page_id)
    if pages:
        log.info("pre-rendered %d article(s)", len(pages))
    return len(pages)


def queue_prerender():
    """After the current transaction commits, queue `prerender_due`. A broker outage only means
    readers get live renders until beat runs again."""
    from django.db import transaction

    from .prerender import enabled

    if not enabled():
        return

    def send():
        try:
            prerender_due.apply_async(queue=getattr(settings, "ARTICLE_PRERENDER_QUEUE", None) or None)
        except Exception as exc:  # kombu/redis errors when the broker is unreachable
            log.warning("could not queue the pre-render of articles (%s); pages render live meanwhile", exc)

    transaction.on_commit(send)


@shared_task(name="articles.tasks.reconcile_caches")
def reconcile_caches():
    """Celery beat, every RECONCILE_SECONDS: rebuild from the database what a lost cache bump, CDN
    purge or pre-render queueing left stale (articles/reconcile.py)."""
    from .reconcile import reconcile

    return reconcile()
