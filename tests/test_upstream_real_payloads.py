"""Every adapter on responses the upstreams really sent (tests/upstream_examples/real_*, documented_*,
thirdparty_*; origins in docs/upstreams.md), served by a fake upstream on 127.0.0.1, and
`manage.py check_upstream` on each of them."""

import gzip
import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command

from benchmarks.ingest.adapters import SchemaChanged
from benchmarks.ingest.adapters.artificial_analysis import (
    ArtificialAnalysisAdapter,
    ArtificialAnalysisLegacyFileAdapter,
)
from benchmarks.ingest.adapters.litellm import LiteLLMAdapter
from benchmarks.ingest.adapters.openrouter import OpenRouterAdapter

from .refresh_support import (
    AA_GLM_PROVIDERS,
    AA_KEY,
    EXAMPLES,
    LITELLM,
    example,
    example_json,
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
)

AA_FREE = "/api/v2/language/models/free"
LEGACY = "/api/v2/data/llms/models"
KIMI = "/api/v1/models/moonshotai/kimi-k3/endpoints"
JEV = "/api/v1/models/typesafe/jev-1.13/endpoints"
REAL_LEGACY = "real_aa_data_llms_models_2026-07-31.json"
REAL_KIMI = "real_openrouter_moonshotai_kimi-k3_endpoints_2026-08-25_reduced.json"
REAL_JEV = "real_openrouter_typesafe_jev-1.13_endpoints_2026-09-28_no_key.json"


def real_litellm():
    with gzip.open(EXAMPLES / "real_litellm_model_prices_and_context_window_1.110.2.json.gz", "rt") as file:
        return file.read()


def thirdparty_rows():
    return (
        example_json("thirdparty_aa_language_models_free_page1.json")["data"]
        + example_json("thirdparty_aa_language_models_free_page2.json")["data"]
    )


def three_pages():
    """The six third-party rows re-paged two by two, as AA pages its list."""
    rows = thirdparty_rows()
    return [
        json.dumps(
            {
                "tier": "free",
                "intelligence_index_version": 4.1,
                "pagination": {"page": n, "page_size": 2, "total_pages": 3, "has_more": n < 3},
                "data": rows[2 * (n - 1) : 2 * n],
            }
        )
        for n in (1, 2, 3)
    ]


def by_id(rows):
    return {row.upstream_id: row for row in rows}


# --- Artificial Analysis free list ----------------------------------------------------------------
def test_free_list_reads_all_three_pages_until_has_more_is_false(fake_upstream):
    for n, page in enumerate(three_pages(), start=1):
        fake_upstream.set(f"{AA_FREE}?page={n}", page)

    result = ArtificialAnalysisAdapter({"include": ["*"]}).fetch()

    assert [row.upstream_id for row in result.rows] == [row["id"] for row in thirdparty_rows()]
    assert [hit["route"] for hit in fake_upstream.hits(AA_FREE)] == [f"{AA_FREE}?page={n}" for n in (1, 2, 3)]
    assert len(json.loads(result.raw_payload)["pages"]) == 3
    gpt_oss = by_id(result.rows)["36f73aaf-d38a-4b56-a2b3-d04d17186910"]
    assert gpt_oss.metrics == {"output_speed_median": Decimal("296.47"), "ttfc_median": Decimal("0.65")}
    assert (gpt_oss.input_per_m, gpt_oss.output_per_m) == (Decimal("0.06"), Decimal("0.2"))
    # Kimi K2's figures are null in the third-party page: not measured, never zero.
    kimi = by_id(result.rows)["b1c2d3e4-0000-4000-8000-000000000003"]
    assert kimi.metrics == {"output_speed_median": None, "ttfc_median": None} and not kimi.has_price


def test_documented_free_example_parses(fake_upstream):
    page = example_json("documented_aa_language_models_free_example.json")
    page["pagination"]["has_more"] = False
    fake_upstream.set(f"{AA_FREE}?page=1", json.dumps(page))

    [row] = ArtificialAnalysisAdapter({"include": ["*"]}).fetch().rows

    assert (row.name, row.metrics["output_speed_median"], row.input_per_m) == (
        "gpt-oss-20B (high)",
        Decimal("296.47"),
        Decimal("0.06"),
    )


def test_a_list_whose_pages_do_not_add_up_fails_instead_of_paging_forever(fake_upstream):
    page = json.dumps(json.loads(three_pages()[0]))  # says total_pages 3, has_more true — on every page
    for route in (AA_FREE, f"{AA_FREE}?page=1", f"{AA_FREE}?page=2"):
        fake_upstream.set(route, page)

    with pytest.raises(SchemaChanged, match="models list page 3: has_more is true but total_pages is 3"):
        ArtificialAnalysisAdapter({"include": ["*"]}).fetch()
    assert len(fake_upstream.hits(AA_FREE)) == 3


def test_a_list_that_never_ends_stops_at_the_page_guard(fake_upstream):
    page = json.loads(three_pages()[0])
    del page["pagination"]["total_pages"]
    for route in (AA_FREE, f"{AA_FREE}?page=1", f"{AA_FREE}?page=2"):
        fake_upstream.set(route, json.dumps(page))

    with pytest.raises(SchemaChanged, match="still has more after 25 pages"):
        ArtificialAnalysisAdapter({"include": ["*"]}).fetch()
    assert len(fake_upstream.hits(AA_FREE)) == 25


# --- Artificial Analysis per-provider (Commercial), from AA's documented shape -------------------
def test_commercial_providers_array_from_the_documented_example(fake_upstream):
    fake_upstream.set(
        "/api/v2/language/models/gpt-oss-20b", example("documented_aa_language_model_commercial_example.json")
    )

    result = ArtificialAnalysisAdapter({"free_list": False, "models": ["gpt-oss-20b"]}).fetch()

    [novita] = result.rows
    assert novita.upstream_id == "36f73aaf-d38a-4b56-a2b3-d04d17186910/b08f179e-4a69-4f35-b350-8f7144a8b7c8"
    assert novita.name == "gpt-oss-20B (high) · Novita"
    assert novita.metrics == {
        "output_speed_median": Decimal("105.43"),
        "ttfc_median": Decimal("0.64"),
        "accuracy_index": None,
    }
    assert (novita.input_per_m, novita.output_per_m) == (Decimal("0.04"), Decimal("0.15"))
    assert fake_upstream.hits("/api/v2/language/models/gpt-oss-20b")[0]["headers"]["x-api-key"] == AA_KEY
    assert fake_upstream.hits(AA_GLM_PROVIDERS) == []


# --- Artificial Analysis legacy -------------------------------------------------------------------
def test_legacy_real_response_reads_zero_prices_as_not_measured():
    body = example_json(REAL_LEGACY)
    result = ArtificialAnalysisLegacyFileAdapter({"path": str(EXAMPLES / REAL_LEGACY), "include": ["*"]}).fetch()

    assert len(body["data"]) == 589
    assert len(result.rows) == 388  # 201 rows measure nothing at all (every figure 0)
    assert result.skipped == {"nothing measured (every figure 0)": 201}
    rows = by_id(result.rows)
    speed_no_price = [
        item
        for item in body["data"]
        if item["pricing"]["price_1m_input_tokens"] == 0
        and item["pricing"]["price_1m_output_tokens"] == 0
        and item["median_output_tokens_per_second"] > 0
    ]
    assert len(speed_no_price) == 10
    for item in speed_no_price:
        row = rows[item["id"]]
        assert not row.has_price, item["name"]  # 0/0 is "no price measured", not a free model
        assert row.metrics["output_speed_median"] == Decimal(str(item["median_output_tokens_per_second"]))
    glm = rows["f7a4ea75-e548-4069-80d4-9be8bc7c009b"]  # GLM-5.2 (max)
    assert (glm.input_per_m, glm.output_per_m) == (Decimal("1.4"), Decimal("4.4"))
    assert glm.metrics == {"output_speed_median": Decimal("104.371"), "ttfc_median": Decimal("0.924")}


# --- OpenRouter -----------------------------------------------------------------------------------
def test_openrouter_real_endpoints_skip_the_endpoints_that_are_down(fake_upstream):
    fake_upstream.set(KIMI, example(REAL_KIMI))

    result = OpenRouterAdapter({"models": ["moonshotai/kimi-k3"]}).fetch()

    rows = by_id(result.rows)
    assert sorted(rows) == ["moonshotai/kimi-k3|fireworks", "moonshotai/kimi-k3|fireworks/fast"]
    fast = rows["moonshotai/kimi-k3|fireworks/fast"]
    assert fast.metrics == {"output_speed_median": Decimal("86"), "ttft_median": Decimal("0.8145")}
    assert (fast.input_per_m, fast.output_per_m) == (Decimal("4.5"), Decimal("22.5"))
    assert (
        "moonshotai/kimi-k3: skipped endpoints OpenRouter reports down: alibaba (status -2), morph/fast (status -2)."
        in result.notes
    )
    assert result.skipped == {"endpoint reported down (status below 0)": 2}


def test_openrouter_without_a_key_says_why_speeds_are_missing(fake_upstream):
    fake_upstream.set(JEV, example(REAL_JEV))

    result = OpenRouterAdapter({"models": ["typesafe/jev-1.13"]}).fetch()

    [row] = result.rows
    assert row.metrics == {"output_speed_median": None, "ttft_median": None}
    assert (row.input_per_m, row.output_per_m) == (Decimal("0.042"), Decimal("0"))
    assert (
        "typesafe/jev-1.13: no latency or throughput in the answer; OpenRouter publishes them only to requests "
        "with an API key: set OPENROUTER_API_KEY." in result.notes
    )
    assert "Authorization" not in fake_upstream.hits(JEV)[0]["headers"]


def test_openrouter_key_is_sent_as_bearer(fake_upstream, settings):
    settings.OPENROUTER_API_KEY = "or-test-key-1"
    fake_upstream.set(KIMI, example(REAL_KIMI))

    result = OpenRouterAdapter({"models": ["moonshotai/kimi-k3"]}).fetch()

    assert fake_upstream.hits(KIMI)[0]["headers"]["Authorization"] == "Bearer or-test-key-1"
    assert not any("OPENROUTER_API_KEY" in note for note in result.notes)


def test_openrouter_discount_is_recorded_not_applied(fake_upstream):
    body = example_json(REAL_KIMI)
    body["data"]["endpoints"][0]["pricing"]["discount"] = 0.2
    fake_upstream.set(KIMI, json.dumps(body))

    result = OpenRouterAdapter({"models": ["moonshotai/kimi-k3"]}).fetch()

    fireworks = by_id(result.rows)["moonshotai/kimi-k3|fireworks"]
    assert (fireworks.input_per_m, fireworks.output_per_m) == (Decimal("3"), Decimal("15"))
    assert (
        "moonshotai/kimi-k3: OpenRouter lists a discount for fireworks (0.2); the list price was recorded, "
        "not the discounted one." in result.notes
    )


def test_openrouter_a_delisted_model_is_a_note_and_the_others_are_read(fake_upstream):
    fake_upstream.set(KIMI, example(REAL_KIMI))  # typesafe/gone: not served, the fake answers 404

    result = OpenRouterAdapter({"models": ["typesafe/gone", "moonshotai/kimi-k3"]}).fetch()

    assert len(result.rows) == 2
    assert (
        "OpenRouter no longer lists typesafe/gone (HTTP 404); remove them from this source's parameters."
        in result.notes
    )


# --- LiteLLM --------------------------------------------------------------------------------------
def test_litellm_real_file_skips_what_has_no_token_price_and_merges_fireworks_keys(fake_upstream):
    fake_upstream.set(LITELLM, real_litellm())

    result = LiteLLMAdapter({"include": ["fireworks_ai/*"]}).fetch()

    rows = by_id(result.rows)
    glm = rows["fireworks_ai/glm-5p3"]
    assert glm.aliases == ("fireworks_ai/accounts/fireworks/models/glm-5p3",)
    assert (glm.input_per_m, glm.output_per_m) == (Decimal("1.4"), Decimal("4.4"))
    assert "fireworks_ai/accounts/fireworks/models/glm-5p3" not in rows
    # no key is read twice
    keys = [key for row in result.rows for key in (row.upstream_id, *row.aliases)]
    assert len(keys) == len(set(keys))
    assert (
        result.skipped["no per-token price (router, priority-only, or priced per second / image / request)"]
        > 0
    )


def test_litellm_real_file_whole(fake_upstream):
    fake_upstream.set(LITELLM, real_litellm())

    result = LiteLLMAdapter({"include": ["*"]}).fetch()

    assert len(result.rows) == 3510
    assert result.skipped == {
        "alias of another entry (its target is read under its own key)": 98,
        "no per-token price (router, priority-only, or priced per second / image / request)": 175,
        "not a text-generation entry (embedding, image, audio, video…)": 1060,
    }


# --- manage.py check_upstream on each real payload ------------------------------------------------
def check(adapter, url):
    out = io.StringIO()
    call_command("check_upstream", adapter, "--url", url, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_check_upstream_on_every_real_payload(fake_upstream):
    pages = three_pages()
    for n, page in enumerate(pages, start=1):
        fake_upstream.set(f"{AA_FREE}?page={n}", page)
    fake_upstream.set(LEGACY, example(REAL_LEGACY))
    fake_upstream.set(KIMI, example(REAL_KIMI))
    fake_upstream.set(JEV, example(REAL_JEV))
    fake_upstream.set(LITELLM, real_litellm())
    base = fake_upstream.url

    free = check("artificial-analysis-free", base + AA_FREE)
    legacy = check("artificial-analysis-legacy", base + LEGACY)
    kimi = check("openrouter", base + KIMI)
    jev = check("openrouter", base + JEV)
    litellm = check("litellm", base + LITELLM)

    for summary in (free, legacy, kimi, jev, litellm):
        assert summary["problems"] == [], summary["adapter"]
        assert {"pages", "rows", "skipped", "problems"} <= set(summary)
    assert (free["pages"], free["rows"], free["prices"]) == (3, 6, 5)
    assert free["figures"] == {"output_speed_median": 5, "ttfc_median": 5}
    assert (legacy["pages"], legacy["rows"], legacy["prices"]) == (1, 388, 378)
    assert legacy["skipped"] == {"nothing measured (every figure 0)": 201}
    assert (kimi["rows"], kimi["skipped"]) == (2, {"endpoint reported down (status below 0)": 2})
    assert (jev["rows"], jev["figures"]) == (1, {})
    assert any("OPENROUTER_API_KEY" in note for note in jev["notes"])
    assert (litellm["pages"], litellm["rows"], litellm["prices"]) == (1, 3510, 3510)


def test_check_upstream_prints_lines_and_fails_on_problems(fake_upstream):
    body = example_json(REAL_KIMI)
    body["data"]["endpoints"][0]["throughput_last_30m"]["p50"] = -35
    fake_upstream.set(KIMI, json.dumps(body))
    out = io.StringIO()

    with pytest.raises(SystemExit) as exc, pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr", io.StringIO())
        from django.core.management import execute_from_command_line

        patch.setattr("sys.stdout", out)
        execute_from_command_line(
            ["manage.py", "check_upstream", "openrouter", "--url", fake_upstream.url + KIMI]
        )

    assert exc.value.code == 1
    text = out.getvalue()
    assert "rows: 2" in text and "problems: 1" in text
    assert "Output speed cannot be negative (got -35)" in text
