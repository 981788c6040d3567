"""What keeps one upstream from holding a worker, leaking a key or filling the database: the body size
cap, the run deadline, redirects to another origin, the request budget, the unmapped-rows cap, an
upstream nothing of which is mapped, the Celery time limits — and `manage.py refresh`."""

import datetime
import io
import json
import time
from decimal import Decimal

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.core.management import CommandError, call_command
from django.utils import timezone

from benchmarks.ingest import tasks
from benchmarks.ingest.adapters import Deadline, DeadlineExceeded, PayloadTooLarge
from benchmarks.ingest.adapters.artificial_analysis import ArtificialAnalysisAdapter
from benchmarks.ingest.adapters.litellm import LiteLLMAdapter
from benchmarks.ingest.adapters.openrouter import OpenRouterAdapter
from benchmarks.ingest.refresh import run_refresh
from benchmarks.ingest.scheduling import due_configs
from benchmarks.models import Price, RefreshConfig, RefreshRun, Snapshot, Source, UnmappedUpstreamRow

from .refresh_support import (
    AA_FREE_PAGE_1,
    AA_FREE_PAGE_2,
    AA_KEY,
    LITELLM,
    OPENROUTER_GLM,
    FakeUpstream,
    Reply,
    example,
    example_json,
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
    published_state,
    world_fixture,  # noqa: F401  (the world fixture)
)

KIMI = "/api/v1/models/moonshotai/kimi-k3/endpoints"


@pytest.fixture
def other_origin():
    server = FakeUpstream().start()
    try:
        yield server
    finally:
        server.stop()


# --- body size ------------------------------------------------------------------------------------
def test_a_body_announced_larger_than_the_cap_is_refused_before_reading(fake_upstream, settings):
    settings.REFRESH_MAX_BODY_BYTES = 2000
    fake_upstream.set(LITELLM, '{"sample_spec": {}, "padding": "' + "x" * 5000 + '"}')

    with pytest.raises(PayloadTooLarge, match="announces 5,034 bytes, more than the 2,000 bytes a refresh reads"):
        LiteLLMAdapter({"include": ["*"]}).fetch()
    assert len(fake_upstream.hits(LITELLM)) == 1  # not retried


def test_a_streamed_body_is_cut_off_at_the_cap(fake_upstream, settings):
    """No Content-Length: only counting while the body streams in can stop it."""
    settings.REFRESH_MAX_BODY_BYTES = 100_000
    body = '{"sample_spec": {}, "padding": "' + "x" * 1_000_000 + '"}'
    fake_upstream.set(LITELLM, Reply(body=body, chunked=True))

    with pytest.raises(PayloadTooLarge, match=r"the body passed 100,000 bytes, the most a refresh reads"):
        LiteLLMAdapter({"include": ["*"]}).fetch()


def test_an_oversized_body_fails_the_run_and_changes_nothing(world, fake_upstream, settings):
    settings.REFRESH_MAX_BODY_BYTES = 1000
    before = published_state()

    run = run_refresh(world.openrouter.pk)

    assert run.status == RefreshRun.Status.FAILED
    assert "REFRESH_MAX_BODY_BYTES" in run.error
    assert published_state() == before


# --- the run's deadline ---------------------------------------------------------------------------
def test_a_server_dripping_one_byte_a_second_is_cut_off_at_the_run_deadline(fake_upstream, settings):
    """httpx's timeouts are per read: a byte a second never trips a 2 s read timeout."""
    settings.REFRESH_HTTP_TIMEOUT = 2
    body = example("synthetic_openrouter_z-ai_glm-5.3_endpoints.json")[:60]
    fake_upstream.set(OPENROUTER_GLM, Reply(body=body, drip=1.0))
    started = time.monotonic()

    with pytest.raises(DeadlineExceeded, match="stopped after 3 s, the time one run may take"):
        OpenRouterAdapter({"models": ["z-ai/glm-5.3"]}, deadline=Deadline(3)).fetch()

    # The worker let go long before the 60 bytes (60 s) were through.
    assert fake_upstream.bytes_sent[OPENROUTER_GLM] < 10
    assert time.monotonic() - started < 30  # a guard against a hung test, not a speed check


def test_retries_stop_when_the_deadline_would_pass(fake_upstream, settings):
    settings.REFRESH_HTTP_ATTEMPTS = 5
    settings.REFRESH_HTTP_BACKOFF = 2
    fake_upstream.set(OPENROUTER_GLM, Reply(503, "busy"))

    with pytest.raises(DeadlineExceeded, match=r"HTTP 503 \(server error\); waiting 2 s more would pass"):
        OpenRouterAdapter({"models": ["z-ai/glm-5.3"]}, deadline=Deadline(1)).fetch()
    assert len(fake_upstream.hits(OPENROUTER_GLM)) == 1


def test_a_run_past_its_deadline_is_recorded_as_failed(world, fake_upstream, settings):
    settings.REFRESH_RUN_DEADLINE = 1
    settings.REFRESH_HTTP_TIMEOUT = 5
    body = example("synthetic_openrouter_z-ai_glm-5.3_endpoints.json")
    fake_upstream.set(OPENROUTER_GLM, Reply(body=body, drip=0.3))
    before = published_state()

    run = run_refresh(world.openrouter.pk)

    assert run.status == RefreshRun.Status.FAILED
    assert "REFRESH_RUN_DEADLINE" in run.error
    assert published_state() == before


# --- redirects ------------------------------------------------------------------------------------
def test_the_api_key_does_not_follow_a_redirect_to_another_origin(fake_upstream, other_origin):
    page = example("synthetic_aa_language_models_free_page1.json")
    fake_upstream.set(
        AA_FREE_PAGE_1, Reply(302, "", headers={"Location": f"{other_origin.url}/elsewhere/free?page=1"})
    )
    other_origin.set("/elsewhere/free?page=1", page)

    result = ArtificialAnalysisAdapter({"include": ["*"]}).fetch()

    [asked] = fake_upstream.hits(AA_FREE_PAGE_1)
    assert asked["headers"]["x-api-key"] == AA_KEY
    [redirected] = other_origin.hits("/elsewhere/free")
    assert "x-api-key" not in {name.lower() for name in redirected["headers"]}
    assert AA_KEY not in json.dumps(redirected["headers"])
    assert any("another origin; followed without the API key" in note for note in result.notes)
    assert len(result.rows) == 5  # page 2 came from the first origin, with the key


def test_the_bearer_token_does_not_follow_a_redirect_either(fake_upstream, other_origin, settings):
    settings.OPENROUTER_API_KEY = "or-secret-2"
    fake_upstream.set(OPENROUTER_GLM, Reply(301, "", headers={"Location": f"{other_origin.url}/moved"}))
    other_origin.set("/moved", example("synthetic_openrouter_z-ai_glm-5.3_endpoints.json"))

    OpenRouterAdapter({"models": ["z-ai/glm-5.3"]}).fetch()

    assert fake_upstream.hits(OPENROUTER_GLM)[0]["headers"]["Authorization"] == "Bearer or-secret-2"
    assert "Authorization" not in other_origin.hits("/moved")[0]["headers"]


def test_a_same_origin_redirect_keeps_the_key(fake_upstream):
    fake_upstream.set(AA_FREE_PAGE_1, Reply(307, "", headers={"Location": "/api/v2/moved/free?page=1"}))
    fake_upstream.set("/api/v2/moved/free?page=1", example("synthetic_aa_language_models_free_page1.json"))

    result = ArtificialAnalysisAdapter({"include": ["*"]}).fetch()

    assert fake_upstream.hits("/api/v2/moved/free")[0]["headers"]["x-api-key"] == AA_KEY
    assert not any("another origin" in note for note in result.notes)


# --- the upstream's request budget ----------------------------------------------------------------
def budget_headers(remaining, reset):
    return {
        "x-ratelimit-limit": "100",
        "x-ratelimit-remaining": str(remaining),
        "x-ratelimit-reset": str(reset),
    }


def test_a_run_that_leaves_the_budget_at_the_reserve_schedules_the_next_attempt_after_the_reset(
    world, fake_upstream
):
    reset = int(time.time()) + 3 * 3600
    fake_upstream.set(
        AA_FREE_PAGE_1,
        Reply(body=example("synthetic_aa_language_models_free_page1.json"), headers=budget_headers(3, reset)),
    )
    fake_upstream.set(
        AA_FREE_PAGE_2,
        Reply(body=example("synthetic_aa_language_models_free_page2.json"), headers=budget_headers(2, reset)),
    )

    run = run_refresh(world.aa_free.pk)

    assert run.status == RefreshRun.Status.CHANGED, run.error
    config = RefreshConfig.objects.get(source=world.aa_free)
    assert config.rate_limit["remaining"] == 2 and config.rate_limit["limit"] == 100
    assert config.next_attempt_after == datetime.datetime.fromtimestamp(reset, tz=datetime.UTC)
    assert "Request budget: 2 of 100 requests left" in run.notes
    # The schedule leaves it alone until the reset, although its interval has passed…
    later = timezone.now() + datetime.timedelta(minutes=90)
    assert world.aa_free.pk not in [c.source_id for c in due_configs(["artificial_analysis"], now=later)]
    assert world.aa_free.pk in [
        c.source_id for c in due_configs(["artificial_analysis"], now=later + datetime.timedelta(hours=2))
    ]
    # …and "Refresh now" before the reset fails without spending a request.
    asked = len(fake_upstream.requests)
    again = run_refresh(world.aa_free.pk)
    assert again.status == RefreshRun.Status.FAILED
    assert "not sent, the upstream's request budget is nearly spent (2 of 100 requests left" in again.error
    assert len(fake_upstream.requests) == asked


def test_sources_on_one_api_key_share_its_budget(world, fake_upstream):
    """The free list and the per-provider data of Artificial Analysis spend one key's 100 requests."""
    reset = int(time.time()) + 3 * 3600
    fake_upstream.set(
        AA_FREE_PAGE_1,
        Reply(body=example("synthetic_aa_language_models_free_page1.json"), headers=budget_headers(3, reset)),
    )
    fake_upstream.set(
        AA_FREE_PAGE_2,
        Reply(body=example("synthetic_aa_language_models_free_page2.json"), headers=budget_headers(2, reset)),
    )
    assert run_refresh(world.aa_free.pk).status == RefreshRun.Status.CHANGED

    other = RefreshConfig.objects.get(source=world.aa_providers)
    assert other.rate_limit["remaining"] == 2
    assert other.next_attempt_after == datetime.datetime.fromtimestamp(reset, tz=datetime.UTC)
    asked = len(fake_upstream.requests)
    held = run_refresh(world.aa_providers.pk)
    assert held.status == RefreshRun.Status.FAILED and "request budget is nearly spent" in held.error
    assert len(fake_upstream.requests) == asked  # not one request on the spent key
    # Another upstream's key keeps its own budget.
    assert RefreshConfig.objects.get(source=world.openrouter).rate_limit == {}


def test_a_run_stops_before_spending_the_last_requests(world, fake_upstream):
    reset = int(time.time()) + 600
    page = example_json("synthetic_aa_language_models_free_page1.json")
    fake_upstream.set(AA_FREE_PAGE_1, Reply(body=json.dumps(page), headers=budget_headers(2, reset)))
    before = published_state()

    run = run_refresh(world.aa_free.pk)

    assert run.status == RefreshRun.Status.FAILED
    assert "models list page 2" not in [hit["route"] for hit in fake_upstream.requests]
    assert fake_upstream.hits(AA_FREE_PAGE_2) == []
    assert "request budget is nearly spent" in run.error
    assert RefreshConfig.objects.get(source=world.aa_free).next_attempt_after is not None
    assert published_state() == before


def test_a_429_with_a_reset_time_holds_the_schedule_until_then(world, fake_upstream):
    reset = int(time.time()) + 7200
    fake_upstream.set(
        AA_FREE_PAGE_1,
        Reply(
            429,
            '{"error": "Rate limit exceeded"}',
            headers={"Retry-After": "7200", **budget_headers(0, reset)},
        ),
    )

    run = run_refresh(world.aa_free.pk)

    assert run.status == RefreshRun.Status.FAILED
    config = RefreshConfig.objects.get(source=world.aa_free)
    assert config.next_attempt_after == datetime.datetime.fromtimestamp(reset, tz=datetime.UTC)
    assert len(fake_upstream.hits(AA_FREE_PAGE_1)) == 1


# --- unmapped rows --------------------------------------------------------------------------------
def test_unmapped_rows_stored_per_run_are_capped_and_the_rest_counted(world, fake_upstream, settings):
    settings.REFRESH_MAX_UNMAPPED_STORED = 3
    body = json.loads(example("synthetic_litellm_model_prices_and_context_window.json"))
    for n in range(40):
        body[f"together_ai/unknown/model-{n:02d}"] = {
            "input_cost_per_token": 1e-06,
            "output_cost_per_token": 2e-06,
            "mode": "chat",
        }
    body["groq/zai-org/GLM-5.3-Turbo"] = {"input_cost_per_token": 1e-06, "output_cost_per_token": 2e-06}
    fake_upstream.set(LITELLM, json.dumps(body))

    run = run_refresh(world.litellm.pk)

    assert run.status == RefreshRun.Status.CHANGED, run.error
    assert run.unmapped_rows == 41
    stored = list(UnmappedUpstreamRow.objects.filter(upstream="litellm").values_list("upstream_id", flat=True))
    # The row naming one of our providers and one of our models is kept first.
    assert len(stored) == 3 and stored[0] == "groq/zai-org/GLM-5.3-Turbo"
    assert (
        "Only 3 unmapped rows were stored (REFRESH_MAX_UNMAPPED_STORED), those naming our providers and "
        "models first; 38 more were counted" in run.notes
    )


def test_an_upstream_whose_rows_are_all_unmapped_makes_no_snapshot(world, fake_upstream):
    source = Source.objects.create(
        title="Kimi K3 on OpenRouter", publisher="OpenRouter", url="https://example.com/k3"
    )
    RefreshConfig.objects.create(
        source=source, adapter="openrouter", params={"models": ["moonshotai/kimi-k3"]}
    )
    fake_upstream.set(KIMI, example("real_openrouter_moonshotai_kimi-k3_endpoints_2026-08-25_reduced.json"))
    snapshots = Snapshot.objects.count()

    run = run_refresh(source.pk)

    assert run.status == RefreshRun.Status.FAILED
    assert (
        "none of the 2 upstream rows is mapped to one of our endpoints, so no snapshot was made" in run.error
    )
    assert Snapshot.objects.count() == snapshots
    assert (run.rows_read, run.unmapped_rows) == (2, 2)
    assert set(UnmappedUpstreamRow.objects.filter(source=source).values_list("upstream_id", flat=True)) == {
        "moonshotai/kimi-k3|fireworks",
        "moonshotai/kimi-k3|fireworks/fast",
    }


def test_litellm_counts_what_it_skips_and_places_a_model_named_twice_once(world, fake_upstream):
    run = run_refresh(world.litellm.pk)

    assert run.status == RefreshRun.Status.CHANGED, run.error
    for note in (
        "1 rows skipped: not a text-generation entry",
        "1 rows skipped: alias of another entry",
        "1 rows skipped: no per-token price",
        "1 keys name a model already read under another key",
    ):
        assert note in run.notes
    # The Fireworks model listed under two keys is one row, placed by the mapping of its long key.
    flash = Price.objects.current(endpoints=[world.flash_fireworks.pk]).get()
    assert (flash.input_per_m, flash.output_per_m) == (Decimal("0.15"), Decimal("0.5"))
    assert run.unmapped_rows == 0


# --- Celery time limits ---------------------------------------------------------------------------
def test_refresh_tasks_carry_soft_and_hard_time_limits(settings):
    for task in (tasks.refresh_artificial_analysis, tasks.refresh_openrouter, tasks.refresh_litellm):
        assert (task.soft_time_limit, task.time_limit) == (
            settings.REFRESH_TASK_SOFT_TIME_LIMIT,
            settings.REFRESH_TASK_TIME_LIMIT,
        )
        assert task.soft_time_limit < task.time_limit


def test_the_soft_time_limit_records_the_run_as_failed(world, fake_upstream, monkeypatch):
    def too_long(self):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(OpenRouterAdapter, "fetch", too_long)
    before = published_state()

    run = run_refresh(world.openrouter.pk)

    assert run.status == RefreshRun.Status.FAILED
    assert run.error.startswith("stopped by the refresh task's time limit (REFRESH_TASK_SOFT_TIME_LIMIT")
    assert published_state() == before


# --- manage.py refresh ----------------------------------------------------------------------------
def test_refresh_command_prints_the_outcome(world, fake_upstream):
    out = io.StringIO()

    call_command("refresh", "GLM-5.3 on OpenRouter", stdout=out)

    text = out.getvalue()
    assert "status: New snapshot" in text
    assert "rows read: 6" in text
    assert "figures changed:" in text and "unmapped rows: 1" in text
    assert RefreshRun.objects.filter(source=world.openrouter, status=RefreshRun.Status.CHANGED).count() == 1


def test_refresh_command_dry_run_keeps_nothing(world, fake_upstream):
    out = io.StringIO()
    snapshots, runs = Snapshot.objects.count(), RefreshRun.objects.count()

    call_command("refresh", str(world.openrouter.pk), "--dry-run", stdout=out)

    assert "dry run, nothing was kept" in out.getvalue() and "status: New snapshot" in out.getvalue()
    assert (Snapshot.objects.count(), RefreshRun.objects.count()) == (snapshots, runs)


def test_refresh_command_exits_1_with_the_reason_on_failure(world, fake_upstream):
    fake_upstream.set(OPENROUTER_GLM, Reply(500, "down"))
    out = io.StringIO()

    with pytest.raises(CommandError) as exc:
        call_command("refresh", "GLM-5.3 on OpenRouter", stdout=out)

    assert exc.value.returncode == 1
    assert "status: Failed" in out.getvalue()
    assert "failure reason:" in out.getvalue() and "HTTP 500 (server error)" in out.getvalue()


def test_refresh_command_names_the_sources_when_the_name_is_ambiguous(world):
    with pytest.raises(CommandError, match="sources with refresh settings match “Artificial Analysis”"):
        call_command("refresh", "Artificial Analysis")


def five_pages(first_remaining, reset):
    """The free list re-paged into five pages, each answer stating the budget left after it."""
    rows = example_json("synthetic_aa_language_models_free_page1.json")["data"] + example_json(
        "synthetic_aa_language_models_free_page2.json"
    )["data"]
    pages = {}
    for number, row in enumerate(rows, start=1):
        body = {"tier": "free", "pagination": {"page": number, "page_size": 1, "total_pages": 5,
                                               "has_more": number < 5}, "data": [row]}
        pages[f"/api/v2/language/models/free?page={number}"] = Reply(
            body=json.dumps(body), headers=budget_headers(first_remaining - number + 1, reset)
        )
    return pages


def test_a_paged_list_the_budget_cannot_finish_is_not_started(world, fake_upstream):
    """Page 1 announces 5 pages; 5 requests left with 2 in reserve pay for 3, not 4: stop at once
    instead of spending 3 of the last requests on a list that cannot be finished (issue 26)."""
    reset = int(time.time()) + 3600
    for route, reply in five_pages(5, reset).items():
        fake_upstream.set(route, reply)
    before = published_state()

    run = run_refresh(world.aa_free.pk)

    assert run.status == RefreshRun.Status.FAILED
    assert [hit["route"] for hit in fake_upstream.requests] == [AA_FREE_PAGE_1]
    assert "models list page 1: it announces 5 pages, so 4 more requests are needed, but only 3 can be spent" in (
        run.error
    )
    assert run.rows_read == 1  # what was read is recorded, although nothing was written
    config = RefreshConfig.objects.get(source=world.aa_free)
    assert config.next_attempt_after == datetime.datetime.fromtimestamp(reset, tz=datetime.UTC)
    assert config.http_validators["pages"] == {"free_list": 5}
    assert published_state() == before

    # "Refresh now" before the reset: the list had 5 pages, 3 requests can be spent, so not even page 1.
    RefreshConfig.objects.filter(pk=config.pk).update(
        rate_limit={**config.rate_limit, "remaining": 5}, next_attempt_after=None
    )
    again = run_refresh(world.aa_free.pk)
    assert again.status == RefreshRun.Status.FAILED and "the list had 5 pages at the last run" in again.error
    assert len(fake_upstream.requests) == 1


def test_a_paged_list_the_budget_can_finish_is_read_to_the_end(world, fake_upstream):
    reset = int(time.time()) + 3600
    for route, reply in five_pages(7, reset).items():  # 7 left: 4 more pages and the reserve of 2
        fake_upstream.set(route, reply)

    run = run_refresh(world.aa_free.pk)

    assert run.status == RefreshRun.Status.CHANGED, run.error
    assert len(fake_upstream.requests) == 5 and run.rows_read == 5
