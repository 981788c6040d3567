"""Refresh runs on PostgreSQL against a fake upstream: what gets written, what is refused, what is recorded."""

import datetime
import json
import logging
import threading
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from benchmarks.cache import data_generation
from benchmarks.ingest.refresh import run_refresh
from benchmarks.ingest.scheduling import due_configs
from benchmarks.ingest.tasks import refresh_openrouter
from benchmarks.models import (
    Price,
    RefreshConfig,
    RefreshRun,
    Snapshot,
    UnmappedUpstreamRow,
    UpstreamMapping,
)

from .refresh_support import (
    AA_FREE_PAGE_1,
    AA_GLM_PROVIDERS,
    AA_GPT_OSS_ID,
    AA_KEY,
    LITELLM,
    OPENROUTER_GLM,
    Reply,
    build_world,
    example,
    example_json,
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
    published_state,
    refresh_fixture,  # noqa: F401  (the refresh fixture)
    values_of,
    world_fixture,  # noqa: F401  (the world fixture)
)


# --- a good run ---------------------------------------------------------------------------------
def test_a_changed_upstream_writes_one_published_snapshot_with_its_measurements_and_new_prices(
    world, fake_upstream, refresh
):
    generation = data_generation()

    run = refresh(world.aa_providers)

    assert run.status == RefreshRun.Status.CHANGED, run.error
    snapshot = run.snapshot
    assert snapshot.status == Snapshot.Status.PUBLISHED and run.published
    assert snapshot.raw_payload == example("synthetic_aa_language_model_glm-5-3_commercial.json")
    assert (snapshot.workload, snapshot.effort) == ("10,000-token input", "Max")
    values = values_of(snapshot)
    assert values[(world.glm["Baseten (Fast)"].pk, "output_speed_median")] == Decimal("283.4")
    assert values[(world.glm["Z.ai"].pk, "accuracy_index")] == Decimal("98.74")
    # Fireworks is listed with nulls: not measured, so no row rather than a zero
    assert not any(endpoint == world.glm["Fireworks"].pk for endpoint, _metric in values)
    assert len(values) == 18
    # Unchanged prices (Baseten Fast, Together AI, DeepInfra) are not written again; the others are new.
    new_prices = Price.objects.filter(snapshot=snapshot)
    assert sorted(p.endpoint.label for p in new_prices) == ["Baseten", "Fireworks", "Novita AI", "Z.ai"]
    current = {p.endpoint_id: p for p in Price.objects.current()}
    assert current[world.glm["Baseten (Fast)"].pk].effective_date == world.price_day
    assert (run.rows_read, run.unmapped_rows) == (7, 0)
    # 18 measurements (3 of them replacing baseline values, all different) + 4 new prices
    assert run.rows_changed == 22
    assert {
        "endpoint": world.glm["Baseten (Fast)"].pk,
        "model": world.models["GLM-5.3"].pk,
        "label": "Baseten (Fast) · GLM-5.3",
        "what": "output_speed_median",
        "old": "270",
        "new": "283.4",
    } in run.changes
    assert run.started <= run.finished and run.error == ""
    assert run.notes.startswith(f"Snapshot #{snapshot.pk} published; 22 figures changed.")
    assert data_generation() != generation  # page caches keyed on the generation are invalidated


def test_the_same_data_again_is_unchanged_and_writes_nothing(world, fake_upstream, refresh):
    first = refresh(world.aa_providers)
    state = published_state()
    generation = data_generation()

    second = refresh(world.aa_providers)

    assert second.status == RefreshRun.Status.UNCHANGED
    assert second.snapshot is None and second.rows_changed == 0
    assert second.notes.startswith(f"Same data as snapshot #{first.snapshot_id} (Published).")
    assert Snapshot.objects.filter(source=world.aa_providers).count() == 2  # baseline + first
    assert published_state() == state and data_generation() == generation


def test_volatile_upstream_fields_do_not_make_a_new_snapshot(world, fake_upstream, refresh):
    refresh(world.openrouter)
    body = example_json("synthetic_openrouter_z-ai_glm-5.3_endpoints.json")
    body["data"]["created"] = 1790300000  # metadata we do not read
    fake_upstream.set(OPENROUTER_GLM, json.dumps(body, indent=4))

    assert refresh(world.openrouter).status == RefreshRun.Status.UNCHANGED


def test_without_auto_publish_the_snapshot_waits_as_a_draft_and_readers_see_nothing_new(
    world, fake_upstream, refresh
):
    world.aa_providers.auto_publish = False
    world.aa_providers.save()
    state = published_state()
    generation = data_generation()

    run = refresh(world.aa_providers)

    assert run.status == RefreshRun.Status.CHANGED
    assert run.snapshot.status == Snapshot.Status.DRAFT and not run.published
    assert "saved as a draft for an editor to publish" in run.notes
    assert published_state() == state and data_generation() == generation
    # The next identical run does not pile up drafts.
    assert refresh(world.aa_providers).status == RefreshRun.Status.UNCHANGED


def test_model_level_rows_land_on_the_providers_standard_endpoint_and_unmapped_rows_are_listed(
    world, fake_upstream, refresh
):
    run = refresh(world.aa_free)

    assert run.status == RefreshRun.Status.CHANGED, run.error
    values = values_of(run.snapshot)
    assert values[(world.deepseek_first_party.pk, "output_speed_median")] == Decimal("169.0")
    assert values[(world.flash_zai.pk, "ttfc_median")] == Decimal("2.84")
    assert run.unmapped_rows == 2
    unmapped = {row.upstream_id: row for row in UnmappedUpstreamRow.objects.all()}
    assert unmapped["d35b8e0f-4c72-4a19-9f6d-1e0a7b2c8d05"].reason == "no mapping for this identifier"
    assert unmapped["d35b8e0f-4c72-4a19-9f6d-1e0a7b2c8d05"].upstream_name == "Kimi K3"
    assert (
        unmapped[AA_GPT_OSS_ID].reason
        == "mapped to OpenAI × GPT-OSS 120B, which has no standard-tier endpoint"
    )
    assert "2 rows have no mapping yet" in run.notes
    # Nothing was invented for them.
    assert not world.openai.endpoints.exists()

    # An editor maps Kimi K3 away ("not ours"): the next run drops it from the list and says so.
    UpstreamMapping.objects.create(
        upstream="artificial_analysis", upstream_id="d35b8e0f-4c72-4a19-9f6d-1e0a7b2c8d05", ignored=True
    )
    again = refresh(world.aa_free)
    assert again.unmapped_rows == 1
    assert list(UnmappedUpstreamRow.objects.values_list("upstream_id", "times_seen")) == [(AA_GPT_OSS_ID, 2)]
    assert "1 rows are marked “not ours”" in again.notes


def test_a_new_mapping_makes_the_next_run_write_even_though_upstream_did_not_change(
    world, fake_upstream, refresh
):
    first = refresh(world.openrouter)
    assert first.unmapped_rows == 1  # Chutes
    chutes = world.providers["DeepInfra"]  # stand-in endpoint so the test needs no new provider
    from benchmarks.models import Endpoint

    endpoint = Endpoint.objects.create(provider=chutes, model=world.models["GLM-5.3"], tier="Turbo")
    UpstreamMapping.objects.create(
        upstream="openrouter", upstream_id="z-ai/glm-5.3|chutes/fp8", endpoint=endpoint
    )

    second = refresh(world.openrouter)

    assert second.status == RefreshRun.Status.CHANGED
    assert values_of(second.snapshot)[(endpoint.pk, "output_speed_median")] == Decimal("61.9")
    assert not UnmappedUpstreamRow.objects.exists()


def test_litellm_prices_per_token_become_current_prices_per_million(world, fake_upstream, refresh):
    run = refresh(world.litellm)

    assert run.status == RefreshRun.Status.CHANGED, run.error
    current = {p.endpoint_id: p for p in Price.objects.current()}
    groq = current[world.gpt_oss["Groq"].pk]
    assert (groq.input_per_m, groq.output_per_m, groq.currency) == (Decimal("0.15"), Decimal("0.6"), "USD")
    assert groq.effective_date == timezone.localdate() and groq.source == world.litellm
    assert run.snapshot.measurements.count() == 0
    assert "1 upstream rows are outside this source's parameters" in run.notes


def test_conditional_request_304_records_unchanged_without_parsing(world, fake_upstream, refresh):
    fake_upstream.set(
        LITELLM,
        Reply(body=example("synthetic_litellm_model_prices_and_context_window.json"), headers={"ETag": '"v1"'}),
        Reply(304, headers={"ETag": '"v1"'}),
    )
    refresh(world.litellm)

    run = refresh(world.litellm)

    assert run.status == RefreshRun.Status.UNCHANGED
    assert run.notes.startswith("The upstream answered 304 Not Modified.")
    assert fake_upstream.hits(LITELLM)[1]["headers"]["If-None-Match"] == '"v1"'


# --- failures: each leaves published data exactly as it was ------------------------------------
def fail_and_check(refresh, source, expected_reason):
    state = published_state()
    generation = data_generation()
    snapshots = Snapshot.objects.count()

    run = refresh(source)

    assert run.status == RefreshRun.Status.FAILED
    assert expected_reason in run.error, run.error
    assert run.snapshot is None and run.finished is not None
    assert Snapshot.objects.count() == snapshots
    assert published_state() == state and data_generation() == generation
    return run


def test_http_500_fails_the_run(world, fake_upstream, refresh):
    fake_upstream.set(AA_GLM_PROVIDERS, Reply(500, "Internal Server Error"))
    fail_and_check(refresh, world.aa_providers, "HTTP 500 (server error); gave up after 2 attempts")


def test_timeout_fails_the_run(world, fake_upstream, refresh):
    fake_upstream.set(
        OPENROUTER_GLM, Reply(body=example("synthetic_openrouter_z-ai_glm-5.3_endpoints.json"), delay=1.2)
    )
    fail_and_check(refresh, world.openrouter, "no answer within 0.5 s (timeout); gave up after 2 attempts")


def test_truncated_body_fails_the_run(world, fake_upstream, refresh):
    text = example("synthetic_aa_language_model_glm-5-3_commercial.json")
    fake_upstream.set(AA_GLM_PROVIDERS, Reply(body=text, truncate_at=400))
    fail_and_check(refresh, world.aa_providers, "(truncated body)")


def test_malformed_json_fails_the_run(world, fake_upstream, refresh):
    fake_upstream.set(
        AA_GLM_PROVIDERS,
        example("synthetic_aa_language_model_glm-5-3_commercial.json").replace('"id": "zai",', '"id": zai,'),
    )
    fail_and_check(refresh, world.aa_providers, "providers of glm-5-3: not valid JSON at line")


def test_schema_drift_fails_the_run(world, fake_upstream, refresh):
    body = example_json("synthetic_aa_language_model_glm-5-3_commercial.json")
    for item in body["data"]["providers"]:
        item["perf"] = item.pop("performance")
    fake_upstream.set(AA_GLM_PROVIDERS, json.dumps(body))
    fail_and_check(
        refresh,
        world.aa_providers,
        "providers of glm-5-3, providers[0]: missing key “performance” (the upstream format changed)",
    )


def test_negative_speed_fails_the_run_naming_the_row(world, fake_upstream, refresh):
    body = example_json("synthetic_aa_language_model_glm-5-3_commercial.json")
    body["data"]["providers"][1]["performance"]["median_output_tokens_per_second"] = -164.3
    fake_upstream.set(AA_GLM_PROVIDERS, json.dumps(body))
    fail_and_check(
        refresh,
        world.aa_providers,
        "providers of glm-5-3, providers[1] (GLM-5.3 · Together AI): Output speed cannot be negative (got -164.3).",
    )


def test_percentage_out_of_range_fails_the_run(world, fake_upstream, refresh):
    body = example_json("synthetic_aa_language_model_glm-5-3_commercial.json")
    body["data"]["providers"][4]["endpoint_accuracy_index"] = 9874
    fake_upstream.set(AA_GLM_PROVIDERS, json.dumps(body))
    fail_and_check(refresh, world.aa_providers, "must be between 0 and 100 (got 9874)")


def test_price_jump_factor_is_a_per_source_setting(world, fake_upstream, refresh):
    RefreshConfig.objects.filter(source=world.aa_providers).update(max_price_jump_factor=Decimal("20"))
    body = example_json("synthetic_aa_language_model_glm-5-3_commercial.json")
    body["data"]["providers"][0]["pricing"]["price_1m_output_tokens"] = 66.0
    fake_upstream.set(AA_GLM_PROVIDERS, json.dumps(body))

    run = refresh(world.aa_providers)

    assert run.status == RefreshRun.Status.CHANGED
    current = {p.endpoint_id: p for p in Price.objects.current()}
    assert current[world.glm["Baseten (Fast)"].pk].output_per_m == Decimal("66")


def test_negative_price_fails_the_run(world, fake_upstream, refresh):
    body = example_json("synthetic_openrouter_z-ai_glm-5.3_endpoints.json")
    body["data"]["endpoints"][1]["pricing"]["completion"] = "-0.0000044"
    fake_upstream.set(OPENROUTER_GLM, json.dumps(body))
    fail_and_check(refresh, world.openrouter, "the output price cannot be negative (got -4.4 per 1M tokens)")


def test_all_problems_are_listed_at_once(world, fake_upstream, refresh):
    body = example_json("synthetic_aa_language_model_glm-5-3_commercial.json")
    for item in body["data"]["providers"][:3]:
        item["performance"]["median_time_to_first_token_seconds"] = -1
    fake_upstream.set(AA_GLM_PROVIDERS, json.dumps(body))
    run = fail_and_check(refresh, world.aa_providers, "3 problems, nothing was written:")
    assert run.error.count("First chunk cannot be negative") == 3


def test_two_rows_claiming_one_endpoint_fail_the_run(world, fake_upstream, refresh):
    UpstreamMapping.objects.filter(upstream_id="z-ai/glm-5.3|novita/fp8").update(
        endpoint=world.glm["Together AI"]
    )
    fail_and_check(refresh, world.openrouter, "both map to Together AI · GLM-5.3; fix the mapping table")


def test_an_empty_list_fails_the_run(world, fake_upstream, refresh):
    fake_upstream.set(OPENROUTER_GLM, json.dumps({"data": {"id": "z-ai/glm-5.3", "endpoints": []}}))
    fail_and_check(refresh, world.openrouter, "the upstream returned no rows at all")


def test_429_with_retry_after_is_waited_out_and_the_run_succeeds(world, fake_upstream, refresh):
    fake_upstream.set(
        AA_GLM_PROVIDERS,
        Reply(429, '{"error": "Too many requests"}', headers={"Retry-After": "1"}),
        Reply(body=example("synthetic_aa_language_model_glm-5-3_commercial.json")),
    )

    run = refresh(world.aa_providers)

    assert run.status == RefreshRun.Status.CHANGED
    hits = fake_upstream.hits(AA_GLM_PROVIDERS)
    assert len(hits) == 2 and hits[1]["at"] - hits[0]["at"] >= 0.95
    assert "Waited 1.0 s for the upstream (retries / Retry-After)." in run.notes


def test_429_beyond_the_cap_fails_the_run(world, fake_upstream, refresh):
    fake_upstream.set(AA_GLM_PROVIDERS, Reply(429, "{}", headers={"Retry-After": "900"}))
    fail_and_check(refresh, world.aa_providers, "rate limited (HTTP 429); the upstream asks to wait 900 s")


def test_missing_key_fails_the_run_with_the_variable_name(world, fake_upstream, monkeypatch, refresh):
    monkeypatch.delenv("ARTIFICIAL_ANALYSIS_API_KEY")
    fail_and_check(refresh, world.aa_providers, "ARTIFICIAL_ANALYSIS_API_KEY is not set")


def test_the_api_key_is_never_logged_or_recorded(world, fake_upstream, caplog, refresh):
    caplog.set_level(logging.DEBUG)
    fake_upstream.set(AA_FREE_PAGE_1, Reply(401, json.dumps({"error": "Invalid API key", "key": AA_KEY})))

    run = refresh(world.aa_free)

    assert run.status == RefreshRun.Status.FAILED
    recorded = " ".join(
        str(value) for value in RefreshRun.objects.values_list("error", "notes", "progress").get(pk=run.pk)
    )
    assert AA_KEY not in recorded and AA_KEY not in caplog.text
    assert fake_upstream.hits(AA_FREE_PAGE_1)[0]["headers"]["x-api-key"] == AA_KEY
    assert not RefreshConfig.objects.filter(params__icontains=AA_KEY).exists()


def test_a_second_price_change_on_the_same_day_is_refused_not_overwritten(world, fake_upstream, refresh):
    refresh(world.openrouter)
    body = example_json("synthetic_openrouter_z-ai_glm-5.3_endpoints.json")
    body["data"]["endpoints"][0]["pricing"]["prompt"] = "0.0000012"
    fake_upstream.set(OPENROUTER_GLM, json.dumps(body))

    run = fail_and_check(refresh, world.openrouter, "this source already recorded a price for")
    assert "today's second change needs an editor or waits for tomorrow's refresh" in run.error


# --- scheduling ---------------------------------------------------------------------------------
def test_the_scheduled_task_refreshes_only_enabled_sources_whose_interval_has_passed(world, fake_upstream):
    RefreshConfig.objects.filter(source=world.litellm).update(enabled=False)
    assert {c.source_id for c in due_configs(["openrouter", "litellm"])} == {world.openrouter.pk}

    first = refresh_openrouter()  # what beat calls, with no arguments

    assert [RefreshRun.objects.get(pk=pk).source for pk in first] == [world.openrouter]
    assert refresh_openrouter() == []  # not due again until its interval has passed
    RefreshRun.objects.filter(pk__in=first).update(started=timezone.now() - datetime.timedelta(hours=4))
    assert len(refresh_openrouter()) == 1


def test_beat_schedule_has_one_entry_per_upstream(settings):
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {
        "benchmarks.tasks.refresh_artificial_analysis",
        "benchmarks.tasks.refresh_openrouter",
        "benchmarks.tasks.refresh_litellm",
    } <= tasks


# --- concurrency (real PostgreSQL locking, two threads) -----------------------------------------
@pytest.mark.django_db(transaction=True)
def test_two_refreshes_of_one_source_at_once_make_one_snapshot(fake_upstream):
    world = build_world()
    # Both requests are held until both have arrived, so both runs have their data before either writes.
    barrier = threading.Barrier(2)
    body = example("synthetic_aa_language_model_glm-5-3_commercial.json")
    fake_upstream.set(AA_GLM_PROVIDERS, Reply(body=body, barrier=barrier))
    runs = []

    def refresh():
        try:
            runs.append(run_refresh(world.aa_providers.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=refresh) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert sorted(run.status for run in runs) == [RefreshRun.Status.CHANGED, RefreshRun.Status.UNCHANGED]
    assert Snapshot.objects.filter(source=world.aa_providers).exclude(pk=world.baseline.pk).count() == 1
    assert len(fake_upstream.hits(AA_GLM_PROVIDERS)) == 2
