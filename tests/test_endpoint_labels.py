"""What a page says about a run is what was run: an endpoint's display label, per language, is the name every
block prints (a host whose plans are "Ollama Free" and "Ollama Pro" is one provider with two endpoints)."""

import re

import pytest

from editorial.spanish import english_segments
from editorial.status import translated_models
from tests.factories import (
    EndpointFactory,
    LanguageModelFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)
from tests.test_blocks import render

pytestmark = pytest.mark.django_db


@pytest.fixture
def ollama():
    model = LanguageModelFactory(name="GLM-5.3", slug="glm-5-3")
    ollama = ProviderFactory(name="Ollama", slug="ollama")
    free = EndpointFactory(provider=ollama, model=model, tier="free", display_label_en="Ollama Free",
                           display_label_es="Ollama Gratis")
    pro = EndpointFactory(provider=ollama, model=model, tier="pro", display_label_en="Ollama Pro")  # no Spanish
    plain = EndpointFactory(provider=ProviderFactory(name="Together AI", slug="together-ai"), model=model, tier="Fast")
    source = SourceFactory(publisher="Bench", title="GLM-5.3 hosts")
    SnapshotFactory(source=source, published=True, values=[
        (free, "output_speed_median", "80.5"), (pro, "output_speed_median", "190.0"),
        (plain, "output_speed_median", "120.0")])
    return {"model": model, "source": source, "free": free, "pro": pro}


def leaderboard_raw(d):
    return {"metric": "output_speed_median", "models": [{"model": d["model"].pk, "source": d["source"].pk}],
            "window_hours": 0, "limit": None, "name_style": "short"}


def table_raw(d, name_style):
    return {"model": d["model"].pk, "source": d["source"].pk,
            "columns": [{"field": "output_speed_median", "difference_to_leader": False}],
            "sort_metric": "output_speed_median", "name_style": name_style, "show_api_model": False,
            "cite_sources": False, "caption": ""}


def test_leaderboard_prints_display_labels_in_each_language(ollama):
    _html, english, _data = render("leaderboard", leaderboard_raw(ollama))
    assert "1GLM-5.3OllamaPro190.0" in english and "3GLM-5.3OllamaFree80.5" in english
    assert "2GLM-5.3TogetherAI(Fast)120.0" in english  # no label: today's "Provider (Tier)"
    _html, spanish, _data = render("leaderboard", leaderboard_raw(ollama), language="es")
    assert "OllamaGratis" in spanish and "OllamaFree" not in spanish
    assert "1GLM-5.3OllamaPro" in spanish  # no Spanish label: the English one, not "Ollama (pro)"


@pytest.mark.parametrize("name_style", ["short", "full"])
def test_provider_table_prints_display_labels_in_each_language(ollama, name_style):
    html, _text, _data = render("provider_table", table_raw(ollama, name_style))
    assert re.findall(r'<span class="provider-name">([^<]+)</span>', html) == [
        "Ollama Pro", "Together AI (Fast)", "Ollama Free"]
    html, _text, _data = render("provider_table", table_raw(ollama, name_style), language="es")
    assert re.findall(r'<span class="provider-name">([^<]+)</span>', html) == [
        "Ollama Pro", "Together AI (Fast)", "Ollama Gratis"]


def test_display_label_is_a_segment_of_the_translation_workspace(ollama):
    from benchmarks.models import Endpoint

    assert Endpoint in translated_models()
    segments = {segment.key: segment for segment in english_segments(ollama["free"])}
    assert "display_label" in segments and segments["display_label"].source == "Ollama Free"
