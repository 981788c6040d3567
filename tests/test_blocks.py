"""Each data-bound block rendered from known data: values, missing values, ties, one provider."""

import datetime
import json
import re
from decimal import Decimal

import pytest
from django.utils import timezone, translation

from articles.blocks import ArticleBodyBlock
from articles.data import PageData
from tests.factories import (
    EndpointFactory,
    LanguageModelFactory,
    PriceFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)
from tests.pagecheck import squeeze, visible_text

pytestmark = pytest.mark.django_db


def render(block_type, raw, page_sources=(), language="en"):
    """Render one body block the way an article does (PageData gathered from the stream)."""
    stream = ArticleBodyBlock().to_python([{"type": block_type, "value": raw}])
    data = PageData(blocks=list(stream), page_sources=list(page_sources))
    with translation.override(language):
        html = stream.render_as_block(context={"page_data": data})
    return html, squeeze(visible_text(html)), data


@pytest.fixture
def glm():
    """A model measured by one source: a tiered provider, a tie, a missing value and prices."""
    model = LanguageModelFactory(name="GLM-5.3", slug="glm-5-3")
    source = SourceFactory(publisher="Artificial Analysis", title="GLM-5.3 providers")
    baseten = ProviderFactory(name="Baseten", slug="baseten")
    fast = EndpointFactory(provider=baseten, model=model, tier="Fast")
    std = EndpointFactory(provider=baseten, model=model)
    together = EndpointFactory(provider=ProviderFactory(name="Together AI", slug="together-ai"), model=model)
    zai = EndpointFactory(provider=ProviderFactory(name="Z.ai", full_name="Z.AI", slug="z-ai"), model=model)
    novita = EndpointFactory(provider=ProviderFactory(name="Novita AI", slug="novita-ai"), model=model)
    snapshot = SnapshotFactory(
        source=source,
        values=[
            (fast, "output_speed_median", "283.4"), (fast, "ttfc_median", "0.90"), (fast, "accuracy_index", "94.18"),
            (together, "output_speed_median", "164.3"), (together, "ttfc_median", "0.67"),
            (std, "output_speed_median", "150.4"), (std, "ttfc_median", "2.60"), (std, "accuracy_index", "95.54"),
            # a tie with Baseten's standard tier: the source's order (Z.ai listed first) must hold
            (zai, "output_speed_median", "150.4"), (zai, "ttfc_median", "2.39"), (zai, "accuracy_index", "98.74"),
            (novita, "output_speed_median", "105.5"), (novita, "ttfc_median", "2.51"), (novita, "accuracy_index", "95.62"),
        ],
        published=True,
    )
    pricing = SourceFactory(publisher="Baseten", title="pricing", kind="price_list")
    PriceFactory(endpoint=fast, input_per_m=Decimal("2.10"), output_per_m=Decimal("6.60"), source=pricing)
    PriceFactory(endpoint=std, input_per_m=Decimal("1.40"), output_per_m=Decimal("4.40"), source=pricing)
    PriceFactory(endpoint=zai, input_per_m=Decimal("0.037"), output_per_m=Decimal("0.17"))
    return {"model": model, "source": source, "pricing": pricing, "fast": fast, "std": std, "together": together,
            "zai": zai, "novita": novita, "snapshot": snapshot}


def table_raw(d, **extra):
    raw = {
        "model": d["model"].pk, "source": d["source"].pk,
        "columns": [{"field": "output_speed_median", "difference_to_leader": False},
                    {"field": "ttfc_median", "difference_to_leader": True},
                    {"field": "accuracy_index", "difference_to_leader": True},
                    {"field": "price", "difference_to_leader": False}],
        "sort_metric": "output_speed_median", "name_style": "short", "show_api_model": False,
        "cite_sources": True, "caption": "",
    }
    raw.update(extra)
    return raw


def test_provider_table_rows_sorted_with_dash_differences_and_footnotes(glm):
    html, text, _data = render("provider_table", table_raw(glm), page_sources=[glm["source"], glm["pricing"]])
    assert '<th scope="col">' in html and '<th scope="row">' in html and "<caption" in html
    assert "Swipetoseeallcolumns" in text
    assert "ProviderOutputspeed(tokens/s)Firstchunk(s)Δvsfastest" in text
    # leader row: name, footnotes 1 (measurement source) and 2 (price source), values, differences
    assert "Baseten(Fast)12283.40.90+230ms94.18%−4.6pp$2.10/$6.602" in text
    # Together AI has no accuracy value: a dash in the value and the difference column, no price
    assert "TogetherAI1164.30.670ms——" in text
    # tie at 150.4: Baseten standard was listed before Z.ai by the source
    assert text.index("Baseten1") < text.index("Z.ai")
    assert "98.74%0.0pp$0.037/$0.17" in text
    rows = re.findall(r'<span class="provider-name">([^<]+)</span>', html)
    assert rows == ["Baseten (Fast)", "Together AI", "Baseten", "Z.ai", "Novita AI"]


def test_provider_table_without_source_list_has_no_markers_and_full_names(glm):
    html, text, data = render("provider_table", table_raw(glm, name_style="full"))
    assert '<sup class="fn">' not in html
    assert "Z.AI" in text
    assert data.missing_citations  # the form would refuse this on a page that lists sources


def test_provider_table_single_provider_and_empty_model(glm):
    lone = LanguageModelFactory(name="Lonely")
    endpoint = EndpointFactory(model=lone, provider=ProviderFactory(name="Solo Host"))
    SnapshotFactory(source=glm["source"], values=[(endpoint, "output_speed_median", "42")], published=True)
    _html, text, _ = render("provider_table", table_raw(glm, model=lone.pk))
    assert "SoloHost42.0—" in text
    empty = LanguageModelFactory(name="Unmeasured")
    _html, text, _ = render("provider_table", table_raw(glm, model=empty.pk))
    assert "Nopublishedmeasurementsforthismodelyet." in text


def test_draft_snapshot_values_are_not_shown(glm):
    SnapshotFactory(source=glm["source"], values=[(glm["novita"], "output_speed_median", "999.9")])
    _html, text, _ = render("provider_table", table_raw(glm))
    assert "999.9" not in text and "NovitaAI105.5" in text


def test_bar_chart_scales_within_model_and_prints_values(glm):
    html, text, _ = render("bar_chart", {"model": glm["model"].pk, "source": glm["source"].pk,
                                         "metric": "output_speed_median", "name_style": "short", "note": ""})
    assert "Outputspeedbyprovider·GLM-5.3(tokens/s)" in text
    assert "Baseten(Fast)283.4TogetherAI164.3Baseten150.4Z.ai150.4NovitaAI105.5" in text
    widths = re.findall(r'width: ([\d.]+)%', html)
    assert widths[0] == "100.0" and widths[-1] == f"{Decimal('105.5') / Decimal('283.4') * 100:.1f}"
    assert "<caption>" in html and 'aria-hidden="true"' in html


def test_picks_compute_leader_reason_and_comparisons(glm):
    rows = [
        {"need": "fastest", "model": glm["model"].pk, "source": glm["source"].pk, "compare_with": None,
         "extra_citations": []},
        {"need": "shortest_first_chunk", "model": glm["model"].pk, "source": glm["source"].pk,
         "compare_with": glm["fast"].pk, "extra_citations": []},
        {"need": "highest_accuracy", "model": glm["model"].pk, "source": glm["source"].pk,
         "compare_with": glm["novita"].pk, "extra_citations": [glm["pricing"].pk]},
    ]
    _html, text, _ = render("picks_table", {"caption": "", "rows": rows}, page_sources=[glm["source"], glm["pricing"]])
    assert "NeedPickWhy" in text
    assert "Fastest·GLM-5.3Baseten(Fast)283.4tokens/s,0.90sfirstchunk1" in text
    assert "Shortestfirstchunk·GLM-5.3TogetherAI0.67s,against0.90sonBaseten’sFasttier1" in text
    assert "Highestaccuracy·GLM-5.3Z.ai98.74%,3.12pointsaboveNovitaAI12" in text


def test_pick_on_baseline_model_and_without_data(glm):
    old = LanguageModelFactory(name="GPT-OSS 120B", is_baseline=True)
    rows = [{"need": "fastest", "model": old.pk, "source": None, "compare_with": None, "extra_citations": []}]
    _html, text, _ = render("picks_table", {"caption": "", "rows": rows})
    assert "Fastest·GPT-OSS120Bbaseline—Notmeasuredyet" in text


def test_provider_cards_order_by_best_tier_show_standard_tier_and_dashes(glm):
    other_model = LanguageModelFactory(name="GLM-5.3-Flash")
    other_source = SourceFactory(title="Flash providers")
    coreweave = EndpointFactory(provider=ProviderFactory(name="CoreWeave"), model=other_model)
    SnapshotFactory(source=other_source, values=[(coreweave, "output_speed_median", "200.0")], published=True)
    raw = {
        "metric": "output_speed_median",
        "models": [{"model": glm["model"].pk, "source": glm["source"].pk},
                   {"model": other_model.pk, "source": other_source.pk}],
        "cards": [
            {"provider": p.pk, "summary": "", "strengths": "<p>good</p>", "limitations": "<p>bad</p>"}
            for p in (coreweave.provider, glm["novita"].provider, glm["fast"].provider)
        ],
    }
    _html, text, _ = render("provider_cards", raw, page_sources=[glm["source"], other_source, glm["pricing"]])
    # Baseten first (its Fast tier, 283.4), then CoreWeave (200.0), then Novita AI (105.5)
    assert text.index("Baseten") < text.index("CoreWeave") < text.index("NovitaAI")
    # Baseten's card shows the standard tier (150.4), not the Fast tier, and a dash where unmeasured
    # Its footnotes: the benchmark its values come from (1), not the price list (3): a card prints no price.
    assert "GLM-5.3tokens/s150.4GLM-5.3-Flashtokens/s—StrengthsgoodLimitationsbad1Core" in text
    assert "GLM-5.3tokens/s—GLM-5.3-Flashtokens/s200.0" in text


def test_provider_list_sentences_use_units_by_magnitude(glm):
    run = SourceFactory(title="run", kind="first_party")
    values = []
    for endpoint, ttft, p99 in ((glm["zai"], "1.74", "7.2472"), (glm["std"], "0.331", "3.2272")):
        values += [(endpoint, "ttft_median", ttft), (endpoint, "e2e_p99", p99), (endpoint, "ttft_p95", "1.16"),
                   (endpoint, "tps_median", "240.5"), (endpoint, "task_success", "95.8"),
                   (endpoint, "failure_rate", "0.0")]
    SnapshotFactory(source=run, values=values, published=True)
    _html, text, _ = render("provider_list", {"model": glm["model"].pk, "source": run.pk, "pattern": "latency_scorecard",
                                              "order_by": "e2e_p99", "name_style": "full"})
    expected_first = ("Baseten: 331 ms median, 3.23 seconds end-to-end p99, time to first token p95 1.16 seconds, "
                      "240.5 tokens per second, 95.8% task success, 0.0% failures.")
    assert squeeze(expected_first) in text
    assert text.index("Baseten:") < text.index("Z.AI:1.74secondsmedian,7.25seconds")


def test_leaderboard_averages_window_across_models(glm):
    now = timezone.now()
    second = SnapshotFactory(source=glm["source"], measured_at=now - datetime.timedelta(minutes=5),
                             values=[(glm["fast"], "output_speed_median", "300.0")], published=True)
    assert second.pk
    raw = {"metric": "output_speed_median", "models": [{"model": glm["model"].pk, "source": glm["source"].pk}],
           "window_hours": 24, "limit": 2, "name_style": "short"}
    _html, text, _ = render("leaderboard", raw)
    # Baseten (Fast): (283.4 + 300.0) / 2 = 291.7 over the window; limit keeps two rows
    assert "1GLM-5.3Baseten(Fast)291.7" in text and "2GLM-5.3TogetherAI164.3" in text
    assert "NovitaAI" not in text
    assert "averageofthelast24hours" in text


def test_faq_renders_json_ld():
    raw = {"heading": "FAQ", "items": [{"question": "Which is fastest?", "answer": "<p>It depends.</p>"}]}
    html, text, _ = render("faq", raw)
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S).group(1))
    assert data["@type"] == "FAQPage"
    assert data["mainEntity"][0]["acceptedAnswer"]["text"] == "It depends."
    assert "Whichisfastest?" in text


def test_stale_figure_is_marked_and_cannot_be_the_pick(glm):
    """A speed older than its metric's maximum age is flagged and the next fresh host is picked."""
    from benchmarks.models import Snapshot

    old_source = SourceFactory(title="old run")
    fast_only = SnapshotFactory(
        source=old_source, measured_at=timezone.now() - datetime.timedelta(days=4),
        values=[(glm["fast"], "output_speed_median", "900.0"), (glm["together"], "output_speed_median", "100.0")],
        published=True,
    )
    assert Snapshot.objects.get(pk=fast_only.pk).status == "published"
    raw = table_raw(glm, source=old_source.pk)
    html, text, _ = render("provider_table", raw)
    assert text.count("stale") == 2 and "900.0stale·" in text
    rows = [{"need": "fastest", "model": glm["model"].pk, "source": old_source.pk, "compare_with": None,
             "extra_citations": []}]
    _html, text, _ = render("picks_table", {"caption": "", "rows": rows})
    # measured, so never "not measured"; stale, so never shown as current: dated and marked
    measured = (timezone.now() - datetime.timedelta(days=4)).strftime("%-d %b")
    assert "Notmeasuredyet" not in text and "Baseten(Fast)900.0tokens/s" in text
    assert f"lastmeasured{measured.replace(' ', '')};stale" in text
    # the same endpoints measured an hour ago by the main source are fresh and can be picked
    rows[0]["source"] = glm["source"].pk
    _html, text, _ = render("picks_table", {"caption": "", "rows": rows})
    assert "Baseten(Fast)283.4tokens/s" in text and "stale" not in text


def test_stale_price_is_marked(glm):
    from benchmarks.models import Price

    Price.objects.filter(endpoint=glm["fast"]).update(created_at=timezone.now() - datetime.timedelta(days=8))
    _html, text, _ = render("provider_table", table_raw(glm))
    assert "$2.10/$6.60stale" in text


def test_heading_anchor_comes_from_text_unless_given():
    html, _text, _ = render("heading", {"text": "GLM-5.3 output speed", "level": "h2", "anchor": ""})
    assert '<h2 id="glm-53-output-speed">' in html
    html, _text, _ = render("heading", {"text": "Sources", "level": "h3", "anchor": "refs"})
    assert '<h3 id="refs">' in html
