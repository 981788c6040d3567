"""Fixtures of the import tests."""

import pytest
from django.utils import translation

from benchmarks.models import Source
from tests.factories import EndpointFactory, LanguageModelFactory, ProviderFactory, SourceFactory

from .support import AA_DEEPSEEK_URL, PROVIDERS


@pytest.fixture(autouse=True)
def english():
    """Messages are compared in English, whatever language an earlier test left active."""
    with translation.override("en"):
        yield


@pytest.fixture
def catalogue(db):
    """The providers, models, endpoints and sources the example files in docs/examples name."""
    providers = {slug: ProviderFactory(slug=slug, name=slug.title()) for slug in PROVIDERS}
    models = {
        "glm-5-3": LanguageModelFactory(slug="glm-5-3", name="GLM-5.3"),
        "deepseek-v4-1-flash-1017": LanguageModelFactory(
            slug="deepseek-v4-1-flash-1017", name="DeepSeek V4.1 Flash 1017"
        ),
    }
    endpoints = {}
    for model in models.values():
        for provider in providers.values():
            endpoints[(provider.slug, model.slug, "")] = EndpointFactory(provider=provider, model=model)
        endpoints[("baseten", model.slug, "Fast")] = EndpointFactory(
            provider=providers["baseten"], model=model, tier="Fast"
        )
    sources = {
        "aa_glm": SourceFactory(url="https://artificialanalysis.ai/models/glm-5-3/providers"),
        "aa_deepseek": SourceFactory(url=AA_DEEPSEEK_URL),
        "price_list": SourceFactory(url="https://deepinfra.com/zai-org/GLM-5.3", kind=Source.Kind.PRICE_LIST),
        "novita": SourceFactory(url="https://novita.ai/models/llm/zai-org-glm-5.3", kind=Source.Kind.PRICE_LIST),
        "zai": SourceFactory(url="https://docs.z.ai/guides/overview/pricing", kind=Source.Kind.PRICE_LIST),
        "baseten": SourceFactory(url="https://www.baseten.co/pricing/", kind=Source.Kind.PRICE_LIST),
        "together": SourceFactory(url="https://www.together.ai/pricing", kind=Source.Kind.PRICE_LIST),
    }
    return {"providers": providers, "models": models, "endpoints": endpoints, "sources": sources}
