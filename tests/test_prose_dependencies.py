"""Figures and statements in prose outside data blocks (a note, an FAQ answer, the summary) on a model no
data block shows are part of what the page depends on: new data for that model retires the stored
rendering (and the cached page), so the page never keeps printing the old figure or judging a statement
on old data until its copy expires."""

import datetime
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.test import Client, TestCase

from articles.models import ArticlePage
from articles.prerender import PrerenderedArticle
from articles.tasks import prerender_due
from benchmarks.versioning import model_key
from tests.factories import (
    EndpointFactory,
    LanguageModelFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)
from tests.figures_support import glm_data, make_article, ref_html, table

pytestmark = pytest.mark.django_db


def other_model():
    model = LanguageModelFactory(name="Qwen 9", slug="qwen-9")
    source = SourceFactory(publisher="Artificial Analysis", title="Qwen 9 providers")
    host = EndpointFactory(provider=ProviderFactory(name="Groq", slug="groq"), model=model)
    snapshot = SnapshotFactory(source=source, values=[(host, "output_speed_median", "412.5")], published=True)
    return {"model": model, "source": source, "host": host, "snapshot": snapshot}


def note(html):
    return {"type": "note", "value": {"style": "note", "text": html, "citations": []}}


def test_a_reference_in_a_note_on_another_model_follows_that_models_data(settings):
    settings.ARTICLE_PRERENDER = True
    glm, qwen = glm_data(), other_model()
    speed = ref_html(qwen["model"], "output_speed_median", endpoint=qwen["host"], source=qwen["source"])
    article = make_article([table(glm), note(f"<p>Groq serves Qwen 9 at {speed} tokens/s.</p>")],
                           sources=[glm["source"], glm["pricing"], qwen["source"]])
    prerender_due()
    stored = PrerenderedArticle.objects.get(page=article, language="en")
    assert model_key(qwen["model"].pk) in set(stored.dependencies.values_list("key", flat=True))
    reader = Client()
    page = reader.get(article.url)
    assert page["X-Article-Render"] == "stored" and "412.5" in page.content.decode()

    with TestCase.captureOnCommitCallbacks(execute=True):  # a refresh of Qwen 9's source
        SnapshotFactory(source=qwen["source"], values=[(qwen["host"], "output_speed_median", "455.0")],
                        measured_at=qwen["snapshot"].measured_at + datetime.timedelta(hours=1), published=True)
    cache.clear()
    again = reader.get(article.url).content.decode()
    assert "455.0" in again and "412.5" not in again


def test_the_page_loads_the_prose_models_with_its_own_data(django_assert_max_num_queries):
    """One PageData for the blocks and the prose: no second load for a note's model."""
    glm, qwen = glm_data(), other_model()
    speed = ref_html(qwen["model"], "output_speed_median", endpoint=qwen["host"], source=qwen["source"])
    article = make_article([table(glm), note(f"<p>{speed}</p>")], sources=[glm["source"], qwen["source"]])
    data = ArticlePage.objects.get(pk=article.pk).page_data
    models, _sources = data.requirements
    assert {glm["model"].pk, qwen["model"].pk} <= set(models)
    assert Decimal("412.5") in {row.value for row in data.measurements}
