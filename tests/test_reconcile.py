"""The reconciler (articles/reconcile.py) rebuilds from the database what a lost cache bump left stale."""

import time

import pytest
from django.core.cache import cache
from django.utils import timezone

from articles.models import ArticlePage
from articles.prerender import PrerenderedArticle
from articles.reconcile import reconcile
from articles.tasks import prerender_due
from benchmarks.cache import GENERATION_KEY, mark_reflected, reflected_state
from benchmarks.versioning import current_version, database_state
from config.cache_backend import redis_cache
from config.page_cache import PAGES_GENERATION_KEY
from tests.test_cache_outage import ThrowawayRedis

pytestmark = pytest.mark.django_db

ARTICLE = "/en/fastest-llm-api/"


def followed():
    mark_reflected(database_state())


def generations():
    return cache.get_many([GENERATION_KEY, PAGES_GENERATION_KEY])


def test_nothing_to_do_while_the_caches_follow_the_database(demo_site):
    followed()
    before = generations()
    assert reconcile() == []
    assert generations() == before  # no needless invalidation of every cached page


def test_a_publish_whose_cache_bump_was_lost_is_served_stale_until_the_reconciler_runs(client, demo_site):
    assert "Fastest LLM API" in client.get(ARTICLE).text
    followed()
    kept = generations()
    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    page.title_en = "Renamed while Redis was away"
    page.save_revision().publish()
    cache.set_many(kept, timeout=None)  # the bumps never reached Redis (an outage, a crash)

    stale = client.get(ARTICLE)
    assert stale["X-Page-Cache"] == "hit" and "Renamed while Redis was away" not in stale.text

    assert "page and data generations bumped" in reconcile()
    fresh = client.get(ARTICLE)
    assert fresh["X-Page-Cache"] == "miss" and "Renamed while Redis was away" in fresh.text
    assert reflected_state() == database_state()
    assert reconcile() == []


def test_live_pages_changed_without_a_publish_retire_the_stored_renderings(demo_site, settings):
    settings.ARTICLE_PRERENDER = True
    prerender_due()
    assert PrerenderedArticle.objects.exact(timezone.now()).count() == 4
    followed()
    version = current_version()
    glm = ArticlePage.objects.get(slug_en="glm-5-3-flash-providers")
    # A path that sends no signal (a data migration, a shell): the other article may list this one.
    ArticlePage.objects.filter(pk=glm.pk).update(live=False)

    assert "content version bumped: live pages changed without a publish" in reconcile()
    assert current_version() == version + 1
    assert not PrerenderedArticle.objects.exact(timezone.now()).exists()  # none is served any more
    assert reconcile() == []


def test_while_the_cache_is_unreachable_nothing_is_claimed_and_it_heals_when_back(demo_site, settings):
    server = ThrowawayRedis()
    server.start()
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{server.port}/0", "reconcile",
                                              RETRY_AFTER_SECONDS=0.2)}
    try:
        server.stop()
        assert reconcile()[-1] == "cache unreachable"
        server.start()
        time.sleep(0.3)  # the cache's circuit retries after RETRY_AFTER_SECONDS
        assert reflected_state() is None
        assert "page and data generations bumped" in reconcile()
        assert reflected_state() == database_state()
    finally:
        server.stop()


def test_the_state_does_not_depend_on_the_language_a_request_runs_in(demo_site):
    """An editor working in Spanish publishes: the state recorded after the commit must be the one the
    worker computes (url_path is translated; a mismatch would retire every stored rendering)."""
    from django.utils import translation

    with translation.override("es"):
        spanish = database_state()
    assert database_state() == spanish


def test_beat_runs_the_reconciler_at_least_twice_a_minute(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["articles-reconcile-caches"]
    assert entry["task"] == "articles.tasks.reconcile_caches" and entry["schedule"] <= 30
