"""Adapters against a fake upstream on 127.0.0.1: the saved example shapes, and every way HTTP can go wrong."""

import json
import time
from decimal import Decimal

import pytest

from benchmarks.ingest.adapters import (
    ConfigurationError,
    MalformedPayload,
    SchemaChanged,
    UpstreamClient,
    UpstreamUnavailable,
)
from benchmarks.ingest.adapters.artificial_analysis import (
    ArtificialAnalysisAdapter,
    ArtificialAnalysisLegacyFileAdapter,
)
from benchmarks.ingest.adapters.http_client import retry_after_seconds
from benchmarks.ingest.adapters.litellm import LiteLLMAdapter
from benchmarks.ingest.adapters.openrouter import OpenRouterAdapter

from .refresh_support import (
    AA_FREE_PAGE_1,
    AA_FREE_PAGE_2,
    AA_GLM_ID,
    AA_GLM_PROVIDERS,
    AA_GPT_OSS_ID,
    AA_KEY,
    EXAMPLES,
    LITELLM,
    OPENROUTER_GLM,
    Reply,
    example,
    example_json,
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
)


def by_id(rows):
    return {row.upstream_id: row for row in rows}


# --- shapes -------------------------------------------------------------------------------------
def test_artificial_analysis_free_list_reads_every_page_with_the_key_in_the_header(fake_upstream):
    result = ArtificialAnalysisAdapter({"include": ["*"]}).fetch()

    rows = by_id(result.rows)
    assert len(rows) == 5
    glm = rows[AA_GLM_ID]
    assert glm.name == "GLM-5.3"
    assert glm.metrics == {"output_speed_median": Decimal("98.2"), "ttfc_median": Decimal("2.39")}
    assert (glm.input_per_m, glm.output_per_m) == (Decimal("1.4"), Decimal("4.4"))
    # null means not measured, not zero
    assert rows[AA_GPT_OSS_ID].metrics == {"output_speed_median": None, "ttfc_median": None}
    assert [
        hit["headers"].get("x-api-key") for hit in fake_upstream.hits("/api/v2/language/models/free")
    ] == [AA_KEY, AA_KEY]
    # Both pages are kept verbatim inside one JSON document, and the key is nowhere in it.
    pages = json.loads(result.raw_payload)["pages"]
    assert pages == [
        example_json("synthetic_aa_language_models_free_page1.json"),
        example_json("synthetic_aa_language_models_free_page2.json"),
    ]
    assert example("synthetic_aa_language_models_free_page2.json") in result.raw_payload
    assert AA_KEY not in result.raw_payload


def test_artificial_analysis_include_patterns_count_the_rest_as_out_of_scope(fake_upstream):
    result = ArtificialAnalysisAdapter({"include": ["glm-*"]}).fetch()

    assert sorted(row.name for row in result.rows) == ["GLM-5.3", "GLM-5.3-Flash"]
    assert result.out_of_scope == 3


def test_artificial_analysis_paid_per_provider_rows(fake_upstream):
    result = ArtificialAnalysisAdapter({"free_list": False, "models": ["glm-5-3"]}).fetch()

    rows = by_id(result.rows)
    fast = rows[f"{AA_GLM_ID}/baseten-fast"]
    assert fast.name == "GLM-5.3 · Baseten (Fast)"
    assert fast.metrics == {
        "output_speed_median": Decimal("283.4"),
        "ttfc_median": Decimal("0.90"),
        "accuracy_index": Decimal("94.18"),
    }
    assert (fast.input_per_m, fast.output_per_m) == (Decimal("2.1"), Decimal("6.6"))
    assert rows[f"{AA_GLM_ID}/fireworks"].metrics == {
        "output_speed_median": None,
        "ttfc_median": None,
        "accuracy_index": None,
    }
    assert result.raw_payload == example("synthetic_aa_language_model_glm-5-3_commercial.json")


def test_artificial_analysis_free_tier_key_does_not_spend_requests_on_per_provider_data(fake_upstream):
    result = ArtificialAnalysisAdapter({"include": ["*"], "models": ["glm-5-3"]}).fetch()

    assert len(result.rows) == 5
    assert result.notes == [
        "Per-provider data for glm-5-3 skipped without asking: the key is Free tier and per-provider data "
        "needs the Artificial Analysis Commercial tier."
    ]
    assert fake_upstream.hits(AA_GLM_PROVIDERS) == []


@pytest.mark.parametrize(
    "status, says",
    [
        (403, "HTTP 403, per-provider data needs the Artificial Analysis Commercial tier"),
        (404, "HTTP 404, Artificial Analysis has no model with this slug"),
    ],
)
def test_a_refused_per_provider_request_keeps_the_free_data(fake_upstream, status, says):
    for route in (AA_FREE_PAGE_1, AA_FREE_PAGE_2):
        page = json.loads(fake_upstream.routes[route][0].body)
        page["tier"] = "pro"  # a Pro key reads the free list too, and is refused per-provider data
        fake_upstream.set(route, json.dumps(page))
    fake_upstream.set(AA_GLM_PROVIDERS, Reply(status, '{"error": "Commercial access required"}'))

    result = ArtificialAnalysisAdapter({"include": ["*"], "models": ["glm-5-3"]}).fetch()

    assert len(result.rows) == 5
    [note] = result.notes
    assert note.startswith("Per-provider data for glm-5-3 skipped: ")
    assert says in note
    assert len(fake_upstream.hits(AA_GLM_PROVIDERS)) == 1  # a refusal is not retried


def test_a_pro_answer_without_providers_is_a_note_not_a_failure(fake_upstream):
    body = example_json("synthetic_aa_language_model_glm-5-3_commercial.json")
    body["tier"] = "pro"
    del body["data"]["providers"]
    fake_upstream.set(AA_GLM_PROVIDERS, json.dumps(body))

    result = ArtificialAnalysisAdapter({"free_list": False, "models": ["glm-5-3"]}).fetch()

    assert result.rows == []
    assert result.notes == [
        "Per-provider data for glm-5-3 skipped: the answer (tier “pro”) has no providers; "
        "per-provider data needs the Artificial Analysis Commercial tier."
    ]


def test_artificial_analysis_without_a_key_fails_before_any_request(fake_upstream, monkeypatch):
    monkeypatch.delenv("ARTIFICIAL_ANALYSIS_API_KEY")

    with pytest.raises(ConfigurationError, match="ARTIFICIAL_ANALYSIS_API_KEY is not set"):
        ArtificialAnalysisAdapter({"include": ["*"]}).fetch()
    assert fake_upstream.requests == []


def test_artificial_analysis_legacy_file_reads_zero_as_not_measured(settings):
    settings.REFRESH_FILES_DIR = str(EXAMPLES)

    result = ArtificialAnalysisLegacyFileAdapter({"path": "synthetic_aa_data_llms_models.json", "include": ["*"]}).fetch()

    rows = by_id(result.rows)
    assert rows[AA_GLM_ID].metrics == {"output_speed_median": Decimal("98.2"), "ttfc_median": Decimal("2.39")}
    assert rows[AA_GPT_OSS_ID].metrics == {"output_speed_median": None, "ttfc_median": None}
    assert result.raw_payload == example("synthetic_aa_data_llms_models.json")


def test_openrouter_prices_per_token_become_per_million_and_percentiles_may_be_null_or_numbers(fake_upstream):
    result = OpenRouterAdapter({"models": ["z-ai/glm-5.3"]}).fetch()

    rows = by_id(result.rows)
    together = rows["z-ai/glm-5.3|together/fp8"]
    assert (together.input_per_m, together.output_per_m) == (Decimal("1.4"), Decimal("4.4"))
    assert together.metrics == {"output_speed_median": Decimal("164.3"), "ttft_median": Decimal("0.67")}
    # A plain number instead of percentiles
    assert rows["z-ai/glm-5.3|novita/fp8"].metrics == {
        "output_speed_median": Decimal("105.5"),
        "ttft_median": Decimal("2.51"),
    }
    # null, and percentiles that are all null: not measured
    assert rows["z-ai/glm-5.3|deepinfra/fp4"].metrics == {"output_speed_median": None, "ttft_median": None}
    assert rows["z-ai/glm-5.3|chutes/fp8"].metrics["ttft_median"] is None
    assert (
        rows["z-ai/glm-5.3|deepinfra/fp4"].input_per_m,
        rows["z-ai/glm-5.3|deepinfra/fp4"].output_per_m,
    ) == (Decimal("0.9"), Decimal("4"))


def test_litellm_skips_the_sample_spec_and_entries_out_of_scope(fake_upstream):
    result = LiteLLMAdapter({"include": ["together_ai/*", "deepinfra/*"]}).fetch()

    rows = by_id(result.rows)
    assert sorted(rows) == [
        "deepinfra/openai/gpt-oss-120b",
        "deepinfra/zai-org/GLM-5.3",
        "together_ai/openai/gpt-oss-120b",
        "together_ai/zai-org/GLM-5.3",
    ]
    assert (
        rows["deepinfra/openai/gpt-oss-120b"].input_per_m,
        rows["deepinfra/openai/gpt-oss-120b"].output_per_m,
    ) == (Decimal("0.037"), Decimal("0.17"))
    # gpt-4o and the other hosts' entries are counted, not silently lost; so are the rows skipped
    assert result.out_of_scope == 8
    assert result.skipped == {
        "alias of another entry (its target is read under its own key)": 1,
        "not a text-generation entry (embedding, image, audio, video…)": 1,
    }


def test_litellm_conditional_request_turns_into_not_modified(fake_upstream):
    etag = '"litellm-v1"'
    fake_upstream.set(
        LITELLM,
        Reply(body=example("synthetic_litellm_model_prices_and_context_window.json"), headers={"ETag": etag}),
        Reply(304, headers={"ETag": etag}),
    )
    first = LiteLLMAdapter({"include": ["*"]}).fetch()
    validators = first.validators

    second = LiteLLMAdapter({"include": ["*"]}, validators=validators).fetch()

    assert validators == {fake_upstream.url + LITELLM: {"etag": etag}}
    assert second.not_modified and second.rows == []
    assert fake_upstream.hits(LITELLM)[1]["headers"]["If-None-Match"] == etag


# --- schema drift and garbage ------------------------------------------------------------------
def test_schema_drift_names_the_missing_key_and_where(fake_upstream):
    page = example_json("synthetic_aa_language_models_free_page1.json")
    del page["data"][1]["performance"]["median_output_tokens_per_second"]
    fake_upstream.set(AA_FREE_PAGE_1, json.dumps(page))

    with pytest.raises(SchemaChanged) as exc:
        ArtificialAnalysisAdapter({"include": ["*"]}).fetch()
    assert str(exc.value) == (
        "models list page 1, data[1].performance: missing key “median_output_tokens_per_second” (the upstream format changed)"
    )


def test_schema_drift_wrong_type(fake_upstream):
    body = example_json("synthetic_openrouter_z-ai_glm-5.3_endpoints.json")
    body["data"]["endpoints"][0]["throughput_last_30m"] = ["164.3"]
    fake_upstream.set(OPENROUTER_GLM, json.dumps(body))

    with pytest.raises(
        SchemaChanged,
        match=r"endpoints\[0\]\.throughput_last_30m: expected null, a number or percentiles, found a list",
    ):
        OpenRouterAdapter({"models": ["z-ai/glm-5.3"]}).fetch()


def test_malformed_json_is_reported_with_its_position(fake_upstream):
    fake_upstream.set(
        LITELLM, '{"sample_spec": {}, "groq/openai/gpt-oss-120b": {"input_cost_per_token": 1.5e-07,, }}'
    )

    with pytest.raises(MalformedPayload, match=r"price list: not valid JSON at line 1, column \d+"):
        LiteLLMAdapter({"include": ["*"]}).fetch()


def test_a_body_cut_short_is_reported_as_truncated(fake_upstream):
    text = example("synthetic_openrouter_z-ai_glm-5.3_endpoints.json")
    fake_upstream.set(OPENROUTER_GLM, Reply(body=text, truncate_at=len(text) // 2))

    with pytest.raises(UpstreamUnavailable, match=r"\(truncated body\); gave up after 2 attempts"):
        OpenRouterAdapter({"models": ["z-ai/glm-5.3"]}).fetch()
    assert len(fake_upstream.hits(OPENROUTER_GLM)) == 2


def test_valid_json_that_stops_early_is_reported_as_truncated(fake_upstream):
    text = example("synthetic_litellm_model_prices_and_context_window.json")
    fake_upstream.set(LITELLM, text[: len(text) // 2])  # the server itself sent a short body

    with pytest.raises(MalformedPayload, match="truncated"):
        LiteLLMAdapter({"include": ["*"]}).fetch()


# --- HTTP behaviour -----------------------------------------------------------------------------
def test_server_error_is_retried_with_backoff_then_succeeds(fake_upstream):
    fake_upstream.set(
        LITELLM, Reply(503, "busy"), Reply(body=example("synthetic_litellm_model_prices_and_context_window.json"))
    )

    result = LiteLLMAdapter({"include": ["*"]}).fetch()

    assert len(fake_upstream.hits(LITELLM)) == 2
    assert "Waited 0.1 s for the upstream (retries / Retry-After)." in result.notes


def test_server_error_every_time_gives_up_with_the_status(fake_upstream):
    fake_upstream.set(LITELLM, Reply(500, "oops"))

    with pytest.raises(UpstreamUnavailable) as exc:
        LiteLLMAdapter({"include": ["*"]}).fetch()
    assert (
        str(exc.value)
        == f"{fake_upstream.url[7:]}{LITELLM}: HTTP 500 (server error); gave up after 2 attempts"
    )


def test_timeout_on_every_attempt(fake_upstream):
    fake_upstream.set(OPENROUTER_GLM, Reply(body="{}", delay=1.5))
    started = time.monotonic()

    with pytest.raises(
        UpstreamUnavailable, match=r"no answer within 0.5 s \(timeout\); gave up after 2 attempts"
    ):
        OpenRouterAdapter({"models": ["z-ai/glm-5.3"]}).fetch()
    assert time.monotonic() - started < 3


def test_429_waits_as_long_as_retry_after_says_then_retries(fake_upstream):
    fake_upstream.set(
        AA_FREE_PAGE_2,
        Reply(429, '{"error": "rate limit"}', headers={"Retry-After": "1"}),
        Reply(body=example("synthetic_aa_language_models_free_page2.json")),
    )

    result = ArtificialAnalysisAdapter({"include": ["*"]}).fetch()

    hits = fake_upstream.hits(AA_FREE_PAGE_2)
    assert len(hits) == 2
    assert hits[1]["at"] - hits[0]["at"] >= 0.95
    assert len(result.rows) == 5
    assert result.notes == ["Waited 1.0 s for the upstream (retries / Retry-After)."]


def test_429_asking_for_more_than_the_cap_fails_at_once(fake_upstream):
    fake_upstream.set(AA_FREE_PAGE_1, Reply(429, "{}", headers={"Retry-After": "3600"}))

    with pytest.raises(UpstreamUnavailable, match="asks to wait 3600 s, more than the 5 s a run waits"):
        ArtificialAnalysisAdapter({"include": ["*"]}).fetch()
    assert len(fake_upstream.hits(AA_FREE_PAGE_1)) == 1


def test_refused_key_is_not_retried_and_not_repeated(fake_upstream):
    fake_upstream.set(AA_FREE_PAGE_1, Reply(401, '{"error": "Invalid API key"}'))

    with pytest.raises(UpstreamUnavailable) as exc:
        ArtificialAnalysisAdapter({"include": ["*"]}).fetch()
    assert "HTTP 401, the API key is missing or was refused" in str(exc.value)
    assert AA_KEY not in str(exc.value)
    assert len(fake_upstream.hits(AA_FREE_PAGE_1)) == 1


def test_retry_after_accepts_an_http_date():
    from datetime import UTC, datetime

    now = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
    assert retry_after_seconds("Mon, 30 Nov 2026 12:00:30 GMT", now=now) == 30
    assert retry_after_seconds("7") == 7
    assert retry_after_seconds("soon") is None


def test_every_request_has_a_timeout(fake_upstream):
    with UpstreamClient() as client:
        timeout = client._client.timeout
    assert (timeout.connect, timeout.read, timeout.write, timeout.pool) == (0.5, 0.5, 0.5, 0.5)


def test_every_adapter_a_refresh_setting_can_name_is_registered_with_its_upstream():
    """The data layer finds adapters by name (benchmarks/adapter_registry.py); ingest registers them."""
    from benchmarks.adapter_registry import adapter_named, registered_adapters
    from benchmarks.refresh_models import ADAPTER_UPSTREAM, Adapter

    assert set(registered_adapters()) == set(Adapter.values)
    for name in Adapter.values:
        assert adapter_named(name).name == name
        assert adapter_named(name).upstream == ADAPTER_UPSTREAM[name]


@pytest.mark.django_db
def test_a_refresh_setting_checks_its_parameters_with_the_registered_adapter():
    from django.core.exceptions import ValidationError

    from benchmarks.models import Source
    from benchmarks.refresh_models import RefreshConfig

    source = Source.objects.create(title="OpenRouter endpoints", publisher="OpenRouter", url="https://openrouter.ai/")
    config = RefreshConfig(source=source, adapter="openrouter", params={"model": "z-ai/glm-5.3"})
    with pytest.raises(ValidationError) as refused:
        config.full_clean()
    assert refused.value.message_dict["params"] == ["Unknown parameters: model (known: models)."]
    config.params = {"models": ["z-ai/glm-5.3"]}
    config.full_clean()


def test_unknown_parameters_are_refused():
    assert (
        OpenRouterAdapter.check_params({"model": "z-ai/glm-5.3"})
        == "Unknown parameters: model (known: models)."
    )
    assert (
        OpenRouterAdapter.check_params({"models": ["glm-5.3"]})
        == "Model ids look like “author/slug”: glm-5.3."
    )
    assert (
        ArtificialAnalysisAdapter.check_params({"models": "glm-5-3"}) == "“models” must be a list of strings."
    )
