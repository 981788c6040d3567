"""Stored renderings carry what they show (issue 28): new data for one model retires only the articles
showing that model, a page publish only that page and the articles linking to it or below it, and a
change of unknown reach everything. Each retired copy is served live until the task stores it again."""

import pytest

from articles.prerender import HEADER, PrerenderedDependency, due_pages
from articles.tasks import prerender_due
from benchmarks.models import Measurement
from benchmarks.versioning import bump_content_version, model_key
from tests.factories import EndpointFactory, LanguageModelFactory, SnapshotFactory, SourceFactory
from tests.figures_support import glm_data, make_article, publish_correction, table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("without_page_cache")]


@pytest.fixture
def prerendering(settings):
    settings.ARTICLE_PRERENDER = True
    return settings


def other_model():
    model = LanguageModelFactory(name="Kimi K3", slug="kimi-k3")
    source = SourceFactory(publisher="Artificial Analysis", title="Kimi K3 providers")
    endpoint = EndpointFactory(model=model)
    snapshot = SnapshotFactory(source=source, values=[(endpoint, "output_speed_median", "90.0")], published=True)
    return {"model": model, "source": source, "snapshot": snapshot, "endpoint": endpoint}


def kimi_table(kimi):
    return {"type": "provider_table", "value": {
        "model": kimi["model"].pk, "source": kimi["source"].pk, "sort_metric": "output_speed_median",
        "columns": [{"field": "output_speed_median", "difference_to_leader": False}], "name_style": "short",
        "show_api_model": False, "cite_sources": True, "caption": "", "max_rows": None}}


def link_to(page):
    return {"type": "related_links", "value": {"heading": "More", "links": [{"page": page.pk, "url": "", "text": ""}]}}


@pytest.fixture
def articles(prerendering):
    glm, kimi = glm_data(), other_model()
    on_glm = make_article([table(glm)], sources=[glm["source"], glm["pricing"]], title="GLM hosts")
    on_kimi = make_article([kimi_table(kimi)], sources=[kimi["source"]], title="Kimi hosts")
    linking = make_article([kimi_table(kimi), link_to(on_glm)], sources=[kimi["source"]], title="Kimi, see GLM")
    assert prerender_due() == 3 and due_pages() == []
    return glm, kimi, on_glm, on_kimi, linking


def test_a_rendering_names_the_models_and_pages_it_shows(articles):
    glm, kimi, on_glm, _on_kimi, linking = articles
    keys = set(PrerenderedDependency.objects.filter(rendering__page_id=linking.pk, rendering__language="en")
               .values_list("key", flat=True))
    assert model_key(kimi["model"].pk) in keys and model_key(glm["model"].pk) not in keys
    assert f"page:{on_glm.pk}" in keys and f"page:{linking.get_parent().pk}" in keys


def test_new_data_for_one_model_retires_only_the_articles_showing_it(client, articles):
    glm, kimi, on_glm, on_kimi, linking = articles
    publish_correction(glm["snapshot"], {(glm["fast"].pk, "output_speed_median"): "140"})
    assert due_pages() == [on_glm.pk]
    assert client.get(on_glm.url)[HEADER] == "live" and "140.0" in client.get(on_glm.url).text
    assert client.get(on_kimi.url)[HEADER] == "stored" and client.get(linking.url)[HEADER] == "stored"
    assert prerender_due() == 1 and client.get(on_glm.url)[HEADER] == "stored"

    # A new snapshot (not a correction): the same, for the other model.
    SnapshotFactory(source=kimi["source"], values=[(kimi["endpoint"], "output_speed_median", "95.0")], published=True)
    assert due_pages() == sorted([on_kimi.pk, linking.pk])
    assert Measurement.objects.filter(value=95).exists()


def test_a_page_publish_retires_that_page_and_the_articles_linking_to_it(articles):
    _glm, _kimi, on_glm, on_kimi, linking = articles
    on_glm.save_revision().publish()
    assert due_pages() == sorted([on_glm.pk, linking.pk])
    prerender_due()
    on_kimi.save_revision().publish()
    assert due_pages() == [on_kimi.pk]


def test_a_change_of_unknown_reach_retires_every_rendering(articles):
    _glm, _kimi, on_glm, on_kimi, linking = articles
    bump_content_version()
    assert due_pages() == sorted([on_glm.pk, on_kimi.pk, linking.pk])
