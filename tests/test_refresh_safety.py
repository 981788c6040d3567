"""Nothing absurd reaches readers: implausible values, big jumps and vanished fields hold a refresh as a
draft for review; dead runs are swept; a cache outage after the commit does not fail a published run."""

import datetime
import json
import logging
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from benchmarks.cache import data_generation
from benchmarks.ingest.refresh import run_refresh
from benchmarks.ingest.tasks import invalidate_cache, sweep_stuck_runs
from benchmarks.models import Price, RefreshRun, Snapshot

from .refresh_support import (
    AA_GLM_PROVIDERS,
    build_world,
    example_json,
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
    published_state,
    refresh_fixture,  # noqa: F401  (the refresh fixture)
    world_fixture,  # noqa: F401  (the world fixture)
)


def serve_glm(fake_upstream, change):
    """Serve the GLM-5.3 per-provider document after `change(providers)` edits its rows."""
    body = example_json("synthetic_aa_language_model_glm-5-3_commercial.json")
    change(body["data"]["providers"])
    fake_upstream.set(AA_GLM_PROVIDERS, json.dumps(body))


def held_and_check(refresh, source, *reasons):
    state, generation = published_state(), data_generation()

    run = refresh(source)

    assert run.status == RefreshRun.Status.HELD, (run.status, run.error)
    snapshot = run.snapshot
    assert snapshot.status == Snapshot.Status.DRAFT and not run.published
    for reason in reasons:
        assert reason in snapshot.review_notes, snapshot.review_notes
        assert reason in run.notes, run.notes
    assert run.notes.startswith(f"Snapshot #{snapshot.pk} held for review as a draft, not published")
    assert published_state() == state and data_generation() == generation  # readers see nothing new
    return run


# --- held for review ------------------------------------------------------------------------------
def test_an_absurd_speed_is_held_for_review_instead_of_published(world, fake_upstream, refresh):
    def absurd(providers):
        providers[0]["performance"]["median_output_tokens_per_second"] = 1e9

    serve_glm(fake_upstream, absurd)
    run = held_and_check(
        refresh,
        world.aa_providers,
        "Baseten (Fast) · GLM-5.3): Output speed of 1,000,000,000 tokens/s is above the plausible maximum "
        "of 5,000 tokens/s.",
    )
    assert RefreshRun.Status(run.status).label == "Held for review"


def test_an_absurd_first_token_time_and_price_are_held(world, fake_upstream, refresh):
    def absurd(providers):
        providers[1]["performance"]["median_time_to_first_token_seconds"] = 4000
        providers[3]["pricing"]["price_1m_output_tokens"] = 4400

    serve_glm(fake_upstream, absurd)
    held_and_check(
        refresh,
        world.aa_providers,
        "First chunk of 4,000 s is above the plausible maximum of 600 s.",
        "The output price of 4,400 USD per 1M tokens is above the plausible maximum of 1,000.",
    )


def test_a_jump_against_the_last_published_value_is_held_either_way(world, fake_upstream, refresh):
    # Published baseline: Together AI 160 tokens/s, Z.ai 95 tokens/s.
    def jumps(providers):
        providers[1]["performance"]["median_output_tokens_per_second"] = 1000  # 6.25× up
        providers[4]["performance"]["median_output_tokens_per_second"] = 15  # 6.3× down

    serve_glm(fake_upstream, jumps)
    held_and_check(
        refresh,
        world.aa_providers,
        "Together AI · GLM-5.3): Output speed would change from 160 to 1,000 tokens/s, more than 5×",
        "Z.ai · GLM-5.3): Output speed would change from 95 to 15 tokens/s, more than 5×",
    )


def test_a_price_jump_beyond_the_sources_factor_is_held_not_used(world, fake_upstream, refresh):
    serve_glm(fake_upstream, lambda providers: providers[0]["pricing"].update(price_1m_output_tokens=66.0))
    run = held_and_check(
        refresh,
        world.aa_providers,
        "the output price would change from 6.6 to 66 USD per 1M tokens, more than the 3× this source accepts",
    )
    assert Price.objects.filter(snapshot=run.snapshot, output_per_m=66).exists()  # kept for the editor
    current = {p.endpoint_id: p for p in Price.objects.current()}
    assert current[world.glm["Baseten (Fast)"].pk].output_per_m == Decimal("6.6")


def test_a_field_present_before_and_now_missing_everywhere_holds_the_run(world, fake_upstream, refresh):
    first = refresh(world.aa_providers)
    assert first.status == RefreshRun.Status.CHANGED and first.published

    def renamed(providers):
        for item in providers:
            item["endpoint_accuracy_index_v2"] = item.pop("endpoint_accuracy_index")

    serve_glm(fake_upstream, renamed)
    held_and_check(
        refresh,
        world.aa_providers,
        f"Endpoint Accuracy Index was in snapshot #{first.snapshot_id} and is missing from every row now",
    )


def test_an_editor_reviews_and_publishes_a_held_snapshot(world, fake_upstream, refresh, editor_client):
    serve_glm(fake_upstream, lambda p: p[0]["performance"].update(median_output_tokens_per_second=9000))
    run = refresh(world.aa_providers)
    publish_url = reverse(Snapshot.snippet_viewset.get_url_name("publish"), args=[run.snapshot_id])

    page = editor_client.get(publish_url).content.decode()
    assert "Held for review" in page and "above the plausible maximum of 5,000 tokens/s" in page

    editor_client.post(publish_url)
    assert Snapshot.objects.get(pk=run.snapshot_id).status == Snapshot.Status.PUBLISHED


# --- runs left open by a dead worker ------------------------------------------------------------------
def test_the_beat_sweep_fails_runs_whose_worker_stopped_beating(world, settings, editor_client):
    settings.REFRESH_STUCK_AFTER_MINUTES = 30
    now = timezone.now()
    stuck = RefreshRun.objects.create(
        source=world.aa_providers, adapter="artificial_analysis", status=RefreshRun.Status.RUNNING,
        started=now - datetime.timedelta(minutes=5), progress="Writing",
        heartbeat_at=now - datetime.timedelta(minutes=2), worker="worker-1:4242",
    )
    lost = RefreshRun.objects.create(
        source=world.openrouter, adapter="openrouter", status=RefreshRun.Status.QUEUED,
        queued_at=now - datetime.timedelta(hours=2),
    )
    # Running for 45 minutes, but still beating: a slow run, not a dead one.
    alive = RefreshRun.objects.create(
        source=world.litellm, adapter="litellm", status=RefreshRun.Status.RUNNING,
        started=now - datetime.timedelta(minutes=45), heartbeat_at=now - datetime.timedelta(seconds=10),
    )
    refresh_now = reverse("benchmarks_refresh:now", args=[world.aa_providers.pk])
    assert "already queued or running" in editor_client.get(refresh_now).content.decode()

    closed = sweep_stuck_runs.delay().get()  # the task beat runs every REFRESH_SWEEP_SECONDS

    assert sorted(closed) == sorted([stuck.pk, lost.pk])
    stuck.refresh_from_db()
    assert stuck.status == RefreshRun.Status.FAILED and stuck.finished is not None
    assert "its worker stopped beating: the last heartbeat from worker-1:4242 was at" in stuck.error
    assert "It wrote no snapshot" in stuck.error and stuck.progress == ""
    lost.refresh_from_db()
    assert lost.status == RefreshRun.Status.FAILED and "no worker started the run" in lost.error
    alive.refresh_from_db()
    assert alive.status == RefreshRun.Status.RUNNING
    assert "already queued or running" not in editor_client.get(refresh_now).content.decode()


def test_the_sweep_is_scheduled_by_celery_beat_to_fail_a_silent_run_within_two_minutes(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-stuck-refresh-runs"]
    assert entry["task"] == sweep_stuck_runs.name
    # Worst case: the worker dies just after a beat; the run is failed by the first sweep after the timeout.
    assert settings.REFRESH_HEARTBEAT_SECONDS > 0
    assert settings.REFRESH_HEARTBEAT_TIMEOUT_SECONDS >= 3 * settings.REFRESH_HEARTBEAT_SECONDS
    assert settings.REFRESH_HEARTBEAT_TIMEOUT_SECONDS + entry["schedule"] <= 120


# --- a cache outage after the commit -------------------------------------------------------------------
DEAD_CACHE = {
    "default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there: every cache call fails
        "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.2, "SOCKET_TIMEOUT": 0.2},
    }
}


@pytest.mark.django_db(transaction=True)
def test_a_cache_outage_after_the_commit_does_not_fail_a_published_run(fake_upstream, settings, caplog):
    world = build_world()
    live_cache = settings.CACHES
    generation = data_generation()
    settings.CACHES = DEAD_CACHE  # the outage starts while the run writes

    with caplog.at_level(logging.WARNING, logger="benchmarks.cache"):
        run = run_refresh(world.aa_providers.pk)  # commits for real: on_commit callbacks run

    assert run.status == RefreshRun.Status.CHANGED, run.error
    assert run.published and run.snapshot.status == Snapshot.Status.PUBLISHED and run.error == ""
    assert "the page cache could not be invalidated" in run.notes
    assert "page cache could not be invalidated" in caplog.text
    # The retry task (ingest) is registered with the data layer's cache module at start-up.
    assert "no cache invalidation retry task is registered" not in caplog.text

    # The cache comes back: the retry task bumps the generation, so cached pages show the new data.
    settings.CACHES = live_cache
    assert data_generation() == generation
    invalidate_cache.delay().get()
    assert data_generation() != generation


def test_the_dashboard_lists_a_held_run_as_held(world, fake_upstream, refresh, editor_client):
    serve_glm(fake_upstream, lambda p: p[0]["performance"].update(median_output_tokens_per_second=9000))
    refresh(world.aa_providers)
    panel = editor_client.get(reverse("wagtailadmin_home")).content.decode()
    assert "Held for review" in panel and world.aa_providers.title in panel


def test_every_speed_and_time_metric_declares_its_plausible_maximum():
    from benchmarks.metrics import METRICS, SPEED, TIME

    undeclared = [key for key, metric in METRICS.items() if metric.kind in (SPEED, TIME) and not metric.plausible_max]
    assert undeclared == []
    assert METRICS["output_speed_median"].implausible(Decimal("5000")) is None  # the bound itself is plausible
    assert METRICS["output_speed_median"].implausible(Decimal("5000.1"))
