"""The reconciler: what readers get is rebuilt from the database, within a minute, whatever a crash or
an outage lost after a commit.

A publish or a data change commits its live revision (or snapshot) and the content version in one
transaction; the caches outside the database follow on commit (articles/cache_purge.py,
benchmarks/cache.py) and record the database state they followed. That follow-up can be lost: the
process dies right after the commit, the database stops before it runs, Redis is down. Celery beat
runs `reconcile` every RECONCILE_SECONDS (30); it compares the database state (the content version
and every live page's live revision, benchmarks/versioning.py) with the one the caches recorded, and
when they differ it does what the follow-up would have done, for every page at once:
- bumps the page and data generations and every dependency generation, so no cached page from before
  is served again (each web process re-reads them within PAGE_CACHE_LOCAL_SECONDS);
- purges every live page from the CDN, when one is configured;
- queues the pre-rendering of articles whose stored copies no longer match (stored copies are
  checked against the live revision and the content version when read, so none is served
  meanwhile).
Live pages that changed without a content-version bump (a path that sent no publish signal) get
the bump here, which retires the stored renderings that may list them.
"""

import logging

from django.core.cache import cache
from django.db import transaction
from wagtail.models import Page

from benchmarks.cache import (
    GENERATION_KEY,
    bump_dependency_generations,
    bump_generation_key,
    mark_reflected,
    reflected_state,
)
from benchmarks.versioning import bump_content_version, database_state
from config.page_cache import PAGES_GENERATION_KEY, bump_page_generation

from .cache_purge import cdn_configured, purge_cdn
from .tasks import queue_prerender

log = logging.getLogger(__name__)


def _version(state):
    return state.split(":", 1)[0] if state else None


def reconcile():
    """Heal what the database's state and the caches' record disagree on; returns what it did."""
    state = database_state()
    reflected = reflected_state()
    if reflected == state:
        return []
    done = []
    if reflected is not None and _version(reflected) == _version(state):
        with transaction.atomic():
            bump_content_version()
        state = database_state()
        done.append("content version bumped: live pages changed without a publish")
    generation = bump_page_generation()
    bump_generation_key(GENERATION_KEY)
    bump_dependency_generations(None)  # copies keyed by what they show: which keys a lost bump had is unknown
    if (cache.get(PAGES_GENERATION_KEY) or 0) < generation:
        # Redis did not take the bump (an outage): nothing can be healed until it is back.
        log.info("Reconciler: the cache is unreachable (config.cache warns once per outage); next run retries")
        return done + ["cache unreachable"]
    done.append("page and data generations bumped")
    if cdn_configured():
        purge_cdn(Page.objects.live().public().specific())
        done.append("CDN purged")
    queue_prerender()
    mark_reflected(state)
    # A lost follow-up is worth a warning; an unknown record is a fresh (or flushed) Redis.
    log.log(
        logging.WARNING if reflected is not None else logging.INFO,
        "Reconciler: the caches reflected %s, the database is at %s; healed (%s)",
        reflected or "an unknown state", state, "; ".join(done),
    )
    return done
