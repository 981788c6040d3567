"""One cache "generation" for all benchmark data: a refresh bumps it and every cached page (and the
editor's cached tokens) keyed on it is invalidated at once (the djangoproject.com dashboard pattern).

During a cache outage the cache answers every read with a miss (config/cache_backend.py), so each call
here returns a fresh, time-based generation: nothing matches, pages render from the database. A bump
lost in an outage leaves the old generation in Redis when it comes back; every entry keyed on it was
stored with a lifetime of at most PAGE_CACHE_SECONDS, and the reconciler (articles/reconcile.py) finds
the lost bump sooner: each bump records the database state it follows (REFLECTED_KEY), and a state
nobody recorded means some bump was lost."""

import logging
import time

from django.core.cache import cache
from django.db import DatabaseError, transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)

GENERATION_KEY = "benchmarks:data-generation"
# Per-dependency generations (benchmarks/versioning.py's keys, "model:12", "page:40"), for cached copies
# that record what they show instead of depending on everything: an article's whole page in the page
# cache (config/page_cache.py). EVERYTHING_KEY moves with every change of unknown reach.
EVERYTHING_KEY = "dependencies:everything"
# The database state (versioning.database_state) the cached copies were last invalidated after.
REFLECTED_KEY = "content:reflected-state"

# Sent after a bump, so page caches outside Redis (a CDN) can be purged too (articles/cache_purge.py).
data_generation_bumped = Signal()
# Sent after dependency generations moved, with the keys (None: everything): a CDN purges what shows them.
dependencies_bumped = Signal()


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


def dependency_generation_key(key):
    return f"dependency:{key}"


def dependency_generations(keys):
    """{cache key: generation} of these dependency keys and of EVERYTHING_KEY, in one read (a missing one
    is created with a time-based value, as generation_value does: nothing made before matches it)."""
    names = [EVERYTHING_KEY, *sorted(dependency_generation_key(key) for key in set(keys))]
    found = cache.get_many(names)
    for name in names:
        if found.get(name) is None:
            found[name] = generation_value(name)
    return found


def follow_content_version(sender, keys=None, **kwargs):
    """A committed content-version bump (benchmarks.versioning.content_version_bumped): move the same
    keys' generations. A failure (Redis down) leaves cached pages that may show the change: the retry
    task, and failing it the reconciler, retire every dependency-keyed copy."""
    try:
        bump_dependency_generations(keys)
    except Exception as exc:  # any backend error: Redis down, timeouts
        log.warning("a change committed but its cached pages could not be retired: %s", exc)
        retry_invalidation_later()


def bump_dependency_generations(keys):
    """Retire the cached copies that show these keys (None: every dependency-keyed copy). One call per key:
    a change names the few models or the page it touched."""
    if keys is None:
        generations = [bump_generation_key(EVERYTHING_KEY)]
    else:
        generations = [bump_generation_key(dependency_generation_key(key)) for key in sorted(set(keys))]
    dependencies_bumped.send(sender=None, keys=None if keys is None else sorted(set(keys)))
    return generations


def reflected_state():
    """The database state the caches were last invalidated after (None: unknown, or Redis is down)."""
    return cache.get(REFLECTED_KEY)


def mark_reflected(state):
    """Record that every cached copy was invalidated after the database reached `state`. Read the state
    before invalidating: a change committed in between is then never claimed. A bump lost in a cache
    outage opens the cache's circuit (config/cache_backend.py), so this write is lost with it and the
    reconciler still sees the old state."""
    cache.set(REFLECTED_KEY, state, timeout=None)


def bump_data_generation():
    """Call after published data changed (a refresh, an import, a correction), outside a transaction."""
    from .versioning import bump_content_version

    bump_content_version()
    return bump_cache_generation(everything=True)


def bump_cache_generation(everything=False):
    """The Redis side only: for a change whose database version was bumped in its own transaction.
    Call it after that transaction committed. The dependency-keyed copies follow the keys the change
    bumped (benchmarks.versioning.bump_content_version does that on commit); `everything` retires them
    all as well, for a retry or a reconciliation that cannot know which keys a lost bump had."""
    from .versioning import database_state

    try:
        state = database_state()
    except DatabaseError as exc:
        # The bump must not wait for the database: cached copies go anyway, and with no state recorded
        # the reconciler bumps once more when it can read the database (harmless).
        log.warning("cache generation bumped without reading the database state: %s", exc)
        state = None
    generation = bump_generation_key(GENERATION_KEY)
    if everything:
        bump_dependency_generations(None)
    data_generation_bumped.send(sender=None, generation=generation)
    if state is not None:
        mark_reflected(state)
    return generation


def invalidate_after_commit(notes=None, keys=None):
    """Bump the content version in the current transaction (so stored renderings stop matching at its
    commit, whatever happens after), and the Redis generation once it commits, without letting a
    cache outage touch what was committed.

    A failure after the commit cannot undo a published snapshot, so it must not turn a refresh or an
    import into "failed" either: log a warning, add a line to `notes` (a run's notes, if given) and
    queue a Celery task that retries the bump with backoff until the cache is back. A bump lost with
    the process itself (a crash right after the commit) is found by the reconciler.
    """
    from .versioning import bump_content_version

    # keys: what changed (benchmarks/versioning.py); None: everything; empty: the change bumped its own
    # keys in this transaction already (Snapshot.publish and publish_correction do).
    if keys is None or keys:
        bump_content_version(keys)

    def bump():
        try:
            bump_cache_generation()
        except Exception as exc:  # any backend error: Redis down, timeouts, a full disk
            log.warning("published data changed but the page cache could not be invalidated: %s", exc)
            if notes is not None:
                notes.append(
                    "Published, but the page cache could not be invalidated "
                    f"({exc.__class__.__name__}); a background retry was queued."
                )
            retry_invalidation_later()

    transaction.on_commit(bump)


# The Celery task that retries a lost bump lives in the ingest layer, above this module: it registers
# itself here at start-up (benchmarks.apps), so the data layer never imports ingest.
_retry_task = None


def use_retry_task(task):
    """Register the Celery task that calls bump_cache_generation() again (its `apply_async` is used)."""
    global _retry_task
    _retry_task = task


def retry_invalidation_later():
    if _retry_task is None:
        log.warning("no cache invalidation retry task is registered; the reconciler will redo the bump")
        return
    try:
        _retry_task.apply_async(countdown=30)
    except Exception as exc:  # the broker may be down too (the same Redis, usually)
        log.warning("could not queue the cache invalidation retry either: %s", exc)
