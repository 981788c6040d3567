"""Celery tasks of the articles app."""

import logging

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task(name="articles.tasks.purge_cdn_urls", autoretry_for=(Exception,), retry_backoff=5,
             retry_backoff_max=300, max_retries=6)
def purge_cdn_urls(urls):
    """Ask the CDN (Wagtail's frontend cache backends) to drop these URLs. A worker does it, so a slow
    or failing CDN API never holds an editor's publish or a refresh; failures retry with backoff."""
    from wagtail.contrib.frontend_cache.utils import purge_urls_from_cache

    purge_urls_from_cache(urls)
    return len(urls)
