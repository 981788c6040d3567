"""The Methodology block lists what a cited run recorded, in the page's language."""

from datetime import UTC, datetime

import pytest

from firstparty.aggregation import aggregate_run
from firstparty.models import Run
from tests.firstparty.test_aggregation import make_records
from tests.firstparty_support import first_party_source, make_config, make_endpoint
from tests.test_blocks import render

pytestmark = pytest.mark.django_db


@pytest.fixture
def cited_run():
    source = first_party_source("cited")
    config = make_config("http://127.0.0.1:9/v1", endpoint=make_endpoint("acme"), reasoning_effort="low")
    run = Run.objects.create(name="cited", source=source, requests_per_endpoint=1200, tokenizer="tiktoken o200k_base",
                             started_at=datetime(2026, 9, 3, 9, tzinfo=UTC),
                             finished_at=datetime(2026, 9, 3, 18, tzinfo=UTC))
    run.freeze([config])
    run.save()
    make_records(config.endpoint, run, count=5)
    aggregate_run(run)
    return run


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["Recorded settings of the run (cited)", "Model identifiers", "acme/glm-5-3-flash",
            "one-turn chat completion, streaming, JSON-object mode", "Output token ceiling", "256",
            "Timeout", "20 seconds", "Concurrency per endpoint", "Token counting", "tiktoken o200k_base",
            "Requests per endpoint", "1,200", "Reasoning setting", "low"]),
    ("es", ["Parámetros registrados de la medición (<span lang=\"en\">cited</span>)", "Identificadores del modelo",
            "chat de una sola vuelta, en streaming, en modo objeto JSON", "Límite de tokens de salida", "256",
            "Tiempo máximo", "20 segundos", "Concurrencia por endpoint", "Recuento de tokens",
            "Peticiones por endpoint", "1,200", "Medido"]),
])
def test_methodology_renders_the_run_parameters(cited_run, language, expected):
    raw = {"heading": "Method", "text": "<p>How.</p>", "citations": [cited_run.source.pk]}
    html, _text, _data = render("methodology", raw, page_sources=[cited_run.source], language=language)
    for part in expected:
        assert part in html, part
    if language == "es":
        for english in ("Recorded settings", "Timeout", "Requests per endpoint", "Token counting"):
            assert english not in html


def test_methodology_without_a_run_is_unchanged(cited_run):
    other = first_party_source("other")
    raw = {"heading": "Method", "text": "<p>How.</p>", "citations": [other.pk]}
    html, _text, _data = render("methodology", raw, page_sources=[other])
    assert "Recorded settings" not in html


@pytest.mark.parametrize(("url", "expected"), [
    ("/en/glm-5-3-flash-providers/", ["Recorded settings of the run", "Output token ceiling", "20 seconds",
                                      "tiktoken o200k_base", "600"]),
])
def test_the_demo_scorecard_states_its_method_from_the_run(client, demo_site, url, expected):
    """The demo's methodology prose no longer types the request settings: the run that was measured states them."""
    html = client.get(url).content.decode()
    method = html[html.index('id="methodology"'):]
    for part in expected:
        assert part in method, part
    assert "temperature 0, top-p 1" not in html and "temperatura 0, top-p 1" not in html
