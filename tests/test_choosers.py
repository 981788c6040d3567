"""The chooser pop-ups (endpoint, model, provider, source, price) list by the names a person reads and
find what a person types: a provider's name finds its endpoints, in name order."""

from decimal import Decimal

import pytest
from bs4 import BeautifulSoup
from django.urls import reverse

from .factories import (
    EndpointFactory,
    LanguageModelFactory,
    PriceFactory,
    ProviderFactory,
    SourceFactory,
)

pytestmark = pytest.mark.django_db


def choices(client, model, query=None):
    """The labels a chooser's result list shows, top to bottom."""
    response = client.get(
        reverse(f"wagtailsnippetchoosers_benchmarks_{model}:choose_results"), {"q": query} if query else {}
    )
    assert response.status_code == 200
    soup = BeautifulSoup(response.content, "html.parser")
    return [" ".join(link.get_text().split()) for link in soup.select("a[data-chooser-modal-choice]")]


@pytest.fixture
def catalogue(db):
    together = ProviderFactory(name="Together AI", full_name="Together Computer", slug="together")
    deepinfra = ProviderFactory(name="deepinfra", slug="deepinfra")  # written lower-case by its owner
    fireworks = ProviderFactory(name="Fireworks", slug="fireworks")
    glm = LanguageModelFactory(name="GLM-5.3", slug="glm-5-3", creator="Z.ai")
    deepseek = LanguageModelFactory(name="DeepSeek V4", slug="deepseek-v4", creator="DeepSeek")
    qwen = LanguageModelFactory(name="qwen3-coder", slug="qwen3-coder", creator="Alibaba")
    made = {}
    # created out of order, so the list's order is the chooser's doing
    for provider, model, tier in [
        (together, qwen, ""), (fireworks, glm, ""), (together, glm, "Fast"), (deepinfra, glm, ""),
        (together, deepseek, ""), (together, glm, ""), (fireworks, deepseek, ""),
    ]:
        made[(provider.slug, model.slug, tier)] = EndpointFactory(provider=provider, model=model, tier=tier)
    return made


def test_searching_the_endpoint_chooser_by_a_provider_name_lists_its_endpoints_in_name_order(editor_client, catalogue):
    expected = [
        "Together AI · DeepSeek V4",
        "Together AI · GLM-5.3",
        "Together AI (Fast) · GLM-5.3",
        "Together AI · qwen3-coder",
    ]
    assert choices(editor_client, "endpoint", "Together") == expected
    assert choices(editor_client, "endpoint", "together computer") == expected  # the full name
    assert choices(editor_client, "endpoint", "TOGETHER") == expected  # the slug, any case


def test_the_endpoint_chooser_lists_by_provider_then_model_then_tier(editor_client, catalogue):
    assert choices(editor_client, "endpoint") == [
        "deepinfra · GLM-5.3",
        "Fireworks · DeepSeek V4",
        "Fireworks · GLM-5.3",
        "Together AI · DeepSeek V4",
        "Together AI · GLM-5.3",
        "Together AI (Fast) · GLM-5.3",
        "Together AI · qwen3-coder",
    ]


def test_every_word_typed_narrows_the_endpoints(editor_client, catalogue):
    assert choices(editor_client, "endpoint", "together glm") == [
        "Together AI · GLM-5.3",
        "Together AI (Fast) · GLM-5.3",
    ]
    assert choices(editor_client, "endpoint", "glm-5-3 fast") == ["Together AI (Fast) · GLM-5.3"]
    # a label copied from a page or a listing finds its endpoint
    assert choices(editor_client, "endpoint", "Together AI (Fast) · GLM-5.3") == ["Together AI (Fast) · GLM-5.3"]
    assert choices(editor_client, "endpoint", "together mistral") == []


def test_model_and_provider_choosers_search_names_and_slugs_in_name_order(editor_client, catalogue):
    assert choices(editor_client, "languagemodel") == ["DeepSeek V4", "GLM-5.3", "qwen3-coder"]
    assert choices(editor_client, "languagemodel", "glm-5-3") == ["GLM-5.3"]
    assert choices(editor_client, "languagemodel", "alibaba") == ["qwen3-coder"]
    assert choices(editor_client, "provider") == ["deepinfra", "Fireworks", "Together AI"]
    assert choices(editor_client, "provider", "computer") == ["Together AI"]


def test_source_chooser_lists_by_publisher_then_title(editor_client, db):
    SourceFactory(publisher="OpenRouter", title="GLM-5.3 endpoints")
    SourceFactory(publisher="Artificial Analysis", title="GLM-5.3 providers")
    SourceFactory(publisher="Artificial Analysis", title="DeepSeek V4 providers")
    assert choices(editor_client, "source") == [
        "Artificial Analysis · DeepSeek V4 providers",
        "Artificial Analysis · GLM-5.3 providers",
        "OpenRouter · GLM-5.3 endpoints",
    ]
    assert choices(editor_client, "source", "analysis glm") == ["Artificial Analysis · GLM-5.3 providers"]


def test_price_chooser_finds_a_providers_prices_by_its_name(editor_client, catalogue):
    PriceFactory(endpoint=catalogue[("fireworks", "glm-5-3", "")], input_per_m=Decimal("1"))
    together = PriceFactory(endpoint=catalogue[("together", "glm-5-3", "Fast")], input_per_m=Decimal("2"))
    together.refresh_from_db()
    assert choices(editor_client, "price", "together") == [str(together)]
