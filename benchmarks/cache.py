"""One cache "generation" for all benchmark data: a refresh bumps it and every cached fragment
keyed on it is invalidated at once (the djangoproject.com dashboard pattern).

During a cache outage the cache answers every read with a miss (config/cache_backend.py), so each call
here returns a fresh, time-based generation: nothing matches, pages render from the database. A bump
lost in an outage leaves the old generation in Redis when it comes back; every entry keyed on it was
stored with a lifetime of at most PAGE_CACHE_SECONDS, so no stale copy outlives that."""

import logging
import time

from django.core.cache import cache
from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)

GENERATION_KEY = "benchmarks:data-generation"

# Sent after a bump, so page caches outside Redis (a CDN) can be purged too (articles/cache_purge.py).
data_generation_bumped = Signal()


def generation_value(key):
    generation = cache.get(key)
    if generation is None:
        generation = int(time.time() * 1000)
        cache.add(key, generation, timeout=None)
        generation = cache.get(key, generation)
    return generation


def bump_generation_key(key):
    try:
        generation = cache.incr(key)
    except ValueError:  # no such key yet
        generation = None
    if generation is None:
        generation = int(time.time() * 1000)
        cache.set(key, generation, timeout=None)
    return generation


def data_generation():
    return generation_value(GENERATION_KEY)


def bump_data_generation():
    """Call after published data changed (a refresh, an import, a correction)."""
    from .versioning import bump_content_version

    bump_content_version()
    return bump_cache_generation()


def bump_cache_generation():
    """The Redis side only: for a change whose database version was bumped in its own transaction."""
    generation = bump_generation_key(GENERATION_KEY)
    data_generation_bumped.send(sender=None, generation=generation)
    return generation


def invalidate_after_commit(notes=None):
    """Bump the generation once the current transaction commits, without letting a cache outage
    touch what was committed.

    A failure after the commit cannot undo a published snapshot, so it must not turn a refresh or an
    import into "failed" either: log a warning, add a line to `notes` (a run's notes, if given) and
    queue a Celery task that retries the bump with backoff until the cache is back.
    """

    def bump():
        try:
            bump_data_generation()
        except Exception as exc:  # any backend error: Redis down, timeouts, a full disk
            log.warning("published data changed but the page cache could not be invalidated: %s", exc)
            if notes is not None:
                notes.append(
                    "Published, but the page cache could not be invalidated "
                    f"({exc.__class__.__name__}); a background retry was queued."
                )
            retry_invalidation_later()

    transaction.on_commit(bump)


def retry_invalidation_later():
    from .ingest.tasks import invalidate_cache

    try:
        invalidate_cache.apply_async(countdown=30)
    except Exception as exc:  # the broker may be down too (the same Redis, usually)
        log.warning("could not queue the cache invalidation retry either: %s", exc)
