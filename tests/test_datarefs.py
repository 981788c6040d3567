"""Data references in prose: stored as tokens, rendered as the current published figure with its
footnote, per language, updated by a new snapshot, and resolved in bulk."""

import json
import re
from decimal import Decimal

import pytest
from bs4 import BeautifulSoup
from django.core.cache import cache
from django.db import connection
from django.template import Context, Template
from django.test.utils import CaptureQueriesContext, override_settings
from wagtail.admin.rich_text.converters.contentstate import ContentstateConverter
from wagtail.rich_text import expand_db_html

from tests.factories import EndpointFactory, LanguageModelFactory, SnapshotFactory, SourceFactory
from tests.figures_support import (
    glm_data,
    make_article,
    paragraph,
    publish_correction,
    publish_new_snapshot,
    ref_html,
    table,
)
from tests.workspace_support import open_workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def glm():
    return glm_data()


def dataref_texts(html):
    return re.findall(r'<span class="dataref[^"]*"[^>]*>([^<]*)</span>', html)


def test_editor_token_round_trip_keeps_the_reference_and_not_the_number(glm):
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"], source=glm["source"])
    converter = ContentstateConverter(features=["dataref"])

    state = json.loads(converter.from_database_format(f"<p>Baseten leads at {speed} tokens/s.</p>"))

    assert state["blocks"][0]["text"] == "Baseten leads at 283.4 tokens/s."
    (entity,) = state["entityMap"].values()
    assert entity["type"] == "DATAREF" and entity["mutability"] == "IMMUTABLE"
    assert (
        entity["data"]["endpoint"] == str(glm["fast"].pk)
        and entity["data"]["metric"] == "output_speed_median"
    )
    assert entity["data"]["label"] == "Baseten (Fast) · GLM-5.3 · Output speed"
    (entity_range,) = state["blocks"][0]["entityRanges"]
    assert (entity_range["offset"], entity_range["length"]) == (17, len("283.4"))

    stored = converter.to_database_format(json.dumps(state))
    assert "283.4" not in stored, "the stored text must not freeze today's figure"
    assert f'endpoint="{glm["fast"].pk}"' in stored and 'embedtype="dataref"' in stored
    assert stored.endswith(" tokens/s.</p>")
    assert (
        json.loads(converter.from_database_format(stored))["blocks"][0]["text"] == state["blocks"][0]["text"]
    )


def test_article_prints_the_figure_with_its_footnote_and_updates_after_a_refresh(client, glm):
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"], source=glm["source"])
    price = ref_html(glm["model"], "price_input", endpoint=glm["fast"])
    body = [
        paragraph(
            f"<p>Baseten's Fast tier leads at {speed} tokens/s for {price} per million input tokens.</p>"
        )
    ]
    page = make_article(body, sources=[glm["source"], glm["pricing"]])

    html = client.get(page.url).text
    assert re.search(r'<span class="dataref"[^>]*>283\.4</span><sup class="fn"><a href="#source-1"', html)
    assert re.search(r'<span class="dataref"[^>]*>\$2\.10</span><sup class="fn"><a href="#source-2"', html)

    publish_new_snapshot(glm, {("fast", "output_speed_median"): "301.2"})
    html = client.get(page.url).text
    assert dataref_texts(html) == ["301.2", "$2.10"]


def test_a_correction_replaces_the_figure(client, glm):
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"])
    page = make_article([paragraph(f"<p>{speed} tokens/s</p>")], sources=[glm["source"]])
    assert dataref_texts(client.get(page.url).text) == ["283.4"]

    publish_correction(glm["snapshot"], {(glm["fast"].pk, "output_speed_median"): Decimal("279.9")})
    assert dataref_texts(client.get(page.url).text) == ["279.9"]


@override_settings(NUMBER_FORMATS={"es": {"thousands": ".", "decimal": ","}})
def test_each_language_prints_the_figure_its_own_way(client, glm):
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"])
    accuracy = ref_html(glm["model"], "accuracy_index", endpoint=glm["zai"])
    page = make_article(
        [paragraph(f"<p>{speed} tokens/s, {accuracy} accurate.</p>")],
        body_es=[paragraph(f"<p>{speed} tokens/s, precisión de {accuracy}.</p>")],
        sources=[glm["source"]],
    )
    cache.clear()
    assert dataref_texts(client.get("/en/" + page.slug_en + "/").text) == ["283.4", "98.74%"]
    assert dataref_texts(client.get("/es/" + page.slug_es + "/").text) == ["283,4", "98,74%"]


def test_comparisons_model_best_and_prices(glm):
    refs = [
        ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"], compare="slowest"),
        ref_html(glm["model"], "accuracy_index", endpoint=glm["zai"], compare="above", other=glm["novita"]),
        ref_html(glm["model"], "output_speed_median"),  # the model's best: its fastest endpoint
        ref_html(glm["model"], "ttfc_median"),  # lower is better: the shortest first chunk
        ref_html(glm["model"], "price_output"),  # the model's cheapest output price
        ref_html(glm["model"], "price_input", endpoint=glm["fast"]),
    ]
    html = expand_db_html("<p>" + " | ".join(refs) + "</p>")
    # 283.4 / 105.5 = 2.69; 98.74 - 95.62 = 3.12
    assert dataref_texts(html) == ["2.7×", "3.12", "283.4", "0.67", "$2.20", "$2.10"]
    # Rendered outside an article nothing numbers the sources, so no marker is printed.
    assert "<sup" not in html


def test_missing_and_unreadable_references_print_a_dash_and_say_what_it_means(glm):
    from django.utils import translation

    missing = ref_html(glm["model"], "accuracy_index", endpoint=glm["together"])  # never measured
    source = f'<p>{missing} and <embed embedtype="dataref" model="{glm["model"].pk}" metric="nope"/></p>'
    html = expand_db_html(source)
    assert dataref_texts(html) == ["—", "—"]
    assert html.count("dataref--missing") == 2
    # A dash alone in a sentence reads as punctuation ("ahead: —, Baseten's…"): each says so in words.
    soup = BeautifulSoup(html, "html.parser")
    assert [flag.get_text() for flag in soup.select(".dataref--missing + .missing-flag")] == ["not measured yet"] * 2
    assert all(ref["title"] for ref in soup.select(".dataref--missing"))
    with translation.override("es"):
        assert "aún sin medir" in expand_db_html(source)


def test_template_tag_numbers_footnotes_from_the_page_source_list(glm):
    from articles.blocks import ArticleBodyBlock
    from articles.data import PageData

    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"], source=glm["source"])
    stream = ArticleBodyBlock().to_python([paragraph(f"<p>{speed}</p>")])
    data = PageData(blocks=list(stream), page_sources=[glm["pricing"], glm["source"]])
    html = Template("{% load dataref_tags %}{% richtext_with_data value %}").render(
        Context({"value": stream[0].value, "page_data": data})
    )
    assert re.search(r">283\.4</span><sup class=\"fn\"><a href=\"#source-2\"", html)
    data = PageData(blocks=list(stream), page_sources=[glm["pricing"]])
    html = Template("{% load dataref_tags %}{% richtext_with_data value %}").render(
        Context({"value": stream[0].value, "page_data": data})
    )
    # a source the page doesn't list is numbered after the list, and the Sources block lists it
    assert re.search(r">283\.4</span><sup class=\"fn\"><a href=\"#source-2\"", html)
    assert data.numbered_sources == [(glm["pricing"], False), (glm["source"], True)]


def _article_with_refs(glm, other, references):
    """`references` paragraphs, alternating between the table's model and a model no block shows."""
    body = [table(glm)]
    for n in range(references):
        if n % 2:
            speed = ref_html(other["endpoint"].model, "output_speed_median", endpoint=other["endpoint"])
        else:
            speed = ref_html(
                glm["model"], "output_speed_median", endpoint=glm[("fast", "zai", "novita")[n % 3]]
            )
        body.append(paragraph(f"<p>Speed {speed} tokens/s.</p>"))
    return make_article(body, sources=[glm["source"], glm["pricing"], other["source"]])


def _render_queries(client, page):
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(page.url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response.text


def test_query_count_does_not_grow_with_references(client, glm, django_assert_max_num_queries):
    other = {
        "endpoint": EndpointFactory(model=LanguageModelFactory(name="Other model")),
        "source": SourceFactory(),
    }
    SnapshotFactory(
        source=other["source"], values=[(other["endpoint"], "output_speed_median", "77.7")], published=True
    )
    small = _article_with_refs(glm, other, 2)
    large = _article_with_refs(glm, other, 40)

    small_count, small_html = _render_queries(client, small)
    assert dataref_texts(small_html) == ["283.4", "77.7"]
    cache.clear()
    with django_assert_max_num_queries(small_count):
        response = client.get(large.url)
    assert len(dataref_texts(response.text)) == 40


def test_chooser_returns_a_reference_token(editor_client, glm):
    url = "/admin/datarefs/choose/"
    response = editor_client.get(url)
    assert response.json()["step"] == "chooser"
    assert 'name="metric"' in response.json()["html"]

    response = editor_client.post(
        url,
        {
            "subject": "endpoint",
            "endpoint": glm["zai"].pk,
            "metric": "accuracy_index",
            "compare": "above",
            "other": glm["novita"].pk,
        },
    )
    payload = response.json()
    assert payload["step"] == "chosen"
    assert payload["result"]["data"] == {
        "model": str(glm["model"].pk),
        "endpoint": str(glm["zai"].pk),
        "metric": "accuracy_index",
        "compare": "above",
        "other": str(glm["novita"].pk),
    }
    assert payload["result"]["text"] == "3.12"
    assert payload["result"]["label"] == "Z.ai · GLM-5.3 · Endpoint Accuracy Index points above Novita AI"


def test_chooser_explains_what_is_missing(editor_client, glm):
    url = "/admin/datarefs/choose/"
    other_model = EndpointFactory(model=LanguageModelFactory(name="Other model"))
    cases = [
        (
            {"subject": "endpoint", "metric": "output_speed_median"},
            "Choose the endpoint whose figure this is.",
        ),
        (
            {"subject": "model", "metric": "output_speed_median"},
            "Choose the model whose best figure this is.",
        ),
        (
            {
                "subject": "endpoint",
                "endpoint": glm["fast"].pk,
                "metric": "price_input",
                "compare": "slowest",
            },
            "Prices are quoted as they are; choose no comparison.",
        ),
        (
            {
                "subject": "endpoint",
                "endpoint": glm["fast"].pk,
                "metric": "accuracy_index",
                "compare": "above",
                "other": other_model.pk,
            },
            "Compare with an endpoint of the same model (GLM-5.3).",
        ),
    ]
    for data, message in cases:
        payload = editor_client.post(url, data).json()
        assert payload["step"] == "chooser", data
        assert message in payload["html"], data


def test_editor_shows_the_token_in_both_languages(editor_client, glm):
    """English: the page editor's token shows today's figure. Spanish: the workspace shows the same
    reference as {1}, which the translator may move but not change, and the page prints the figure."""
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"])
    page = make_article(
        [paragraph(f"<p>Leads at {speed} tokens/s.</p>")],
        body_es=[paragraph(f"<p>Lidera con {speed} tokens/s.</p>")],
        sources=[glm["source"]],
    )
    html = editor_client.get(f"/admin/pages/{page.pk}/edit/").text
    assert "articles/js/dataref.js" in html
    assert "DATAREF" in html and "Leads at 283.4 tokens/s." in html.replace("\\u0020", " ")

    response, rows = open_workspace(editor_client, page)
    [row] = [row for key, row in rows.items() if key.startswith("body/")]
    assert (row.english_shown, row.text_shown) == ("<p>Leads at {1} tokens/s.</p>", "<p>Lidera con {1} tokens/s.</p>")
    assert "Lidera con {1} tokens/s." in response.text
    assert dataref_texts(editor_client.get(f"/es/{page.slug_es}/").text) == ["283.4"]


def test_a_stale_reference_prints_its_last_value_marked_with_its_date(client):
    """Data aged past its freshness: prose keeps the last value, marked like a stale table cell."""
    import datetime

    from django.utils import timezone

    from articles.templatetags.article_tags import short_date
    from tests.factories import ProviderFactory

    model = LanguageModelFactory(name="Kimi K3")
    source = SourceFactory(publisher="Our probe", title="Kimi K3 plans")
    moonshot = EndpointFactory(provider=ProviderFactory(name="Moonshot"), model=model)
    groq = EndpointFactory(provider=ProviderFactory(name="Groq"), model=model)
    moment = timezone.now() - datetime.timedelta(days=60)
    SnapshotFactory(source=source, measured_at=moment, published=True,
                    values=[(moonshot, "output_speed_median", "120.5"), (groq, "output_speed_median", "90.1")])
    refs = [ref_html(model, "output_speed_median", source=source, compare=compare, endpoint=endpoint)
            for compare, endpoint in (("leader", None), ("", groq), ("count", None), ("rank", groq))]
    page = make_article([paragraph("<p>{} leads; {} tokens/s; {} hosts; ranked {}.</p>".format(*refs))],
                        sources=[source])

    html = client.get(page.url).text
    assert dataref_texts(html) == ["Moonshot", "90.1", "2", "2nd"]
    assert html.count("dataref--stale") == 4
    flags = re.findall(r'</span><span class="stale-flag"[^>]*>([^<]+)</span>', html)
    assert flags == [f"stale · {short_date(moment)}"] * 4
    assert "dataref--missing" not in html
