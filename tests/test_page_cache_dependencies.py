"""An article served from its stored rendering is kept in the page cache under what it shows (issue 28:
cost follows what changed): new data for a model, or a page's publish, retires the cached pages that
show that model or link to that page, and leaves the others in the cache. Listings, which show every
article, still go with any change; a change of unknown reach, a lost bump healed by the reconciler,
retires them all. What a page showed is read before its content, so a change that lands in between is
never kept."""

from decimal import Decimal

import pytest
from django.core.cache import cache

from articles.models import ArticlePage
from articles.prerender import PrerenderedArticle
from articles.tasks import prerender_due
from benchmarks.models import Measurement, Snapshot
from benchmarks.versioning import model_key, page_key
from tests.figures_support import publish_correction
from tests.test_page_cache import fake_cdn  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db

FASTEST, SCORECARD, HOME = "/en/fastest-llm-api/", "/en/glm-5-3-flash-providers/", "/en/"


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


@pytest.fixture
def stored(demo_site):
    """The demo with each article's stored rendering, as the pre-render task leaves it."""
    prerender_due()
    return {page.slug_en: page for page in ArticlePage.objects.all()}


def shown_keys(page):
    rendering = PrerenderedArticle.objects.get(page=page, language="en")
    return set(rendering.dependencies.values_list("key", flat=True))


def read_all(client, *urls):
    return {url: client.get(url) for url in urls}


def cache_status(client, *urls):
    return {url: client.get(url)["X-Page-Cache"] for url in urls}


def test_a_stored_article_is_cached_under_what_it_shows(client, stored):
    first = read_all(client, FASTEST, SCORECARD)
    assert {url: response["X-Article-Render"] for url, response in first.items()} == {
        FASTEST: "stored", SCORECARD: "stored"}
    assert cache_status(client, FASTEST, SCORECARD) == {FASTEST: "hit", SCORECARD: "hit"}


def test_new_data_for_one_model_retires_only_the_pages_that_show_it(client, stored):
    fastest, scorecard = stored["fastest-llm-api"], stored["glm-5-3-flash-providers"]
    # A model the fastest-API article shows and the scorecard does not (GLM-5.3, not its Flash variant).
    snapshot = next(s for s in Snapshot.objects.filter(status="published").order_by("pk")
                    if set(s.model_keys()) <= shown_keys(fastest) - shown_keys(scorecard))
    row = Measurement.objects.filter(snapshot=snapshot, metric="output_speed_median").order_by("-value").first()
    before = read_all(client, FASTEST, SCORECARD, HOME)
    assert cache_status(client, FASTEST, SCORECARD, HOME) == {FASTEST: "hit", SCORECARD: "hit", HOME: "hit"}

    publish_correction(snapshot, {(row.endpoint_id, row.metric): Decimal("1.5")})  # as the admin publishes one

    assert client.get(SCORECARD)["X-Page-Cache"] == "hit"
    after = client.get(FASTEST)
    assert after["X-Page-Cache"] == "miss" and after.content != before[FASTEST].content
    assert client.get(HOME)["X-Page-Cache"] == "miss"  # a listing shows every article's checked summary
    assert client.get(FASTEST)["X-Page-Cache"] == "hit"  # cached again, under the new generations


def test_a_page_publish_retires_that_page_and_the_pages_that_link_to_it(client, stored,
                                                                      django_capture_on_commit_callbacks):
    fastest, scorecard = stored["fastest-llm-api"], stored["glm-5-3-flash-providers"]
    assert page_key(fastest.pk) in shown_keys(scorecard), "the scorecard links to the fastest-API article"
    assert page_key(scorecard.pk) not in shown_keys(fastest)
    read_all(client, FASTEST, SCORECARD)

    scorecard.title_en = "GLM-5.3-Flash providers, retitled"
    with django_capture_on_commit_callbacks(execute=True):
        scorecard.save_revision().publish()
    assert cache_status(client, FASTEST, SCORECARD) == {FASTEST: "hit", SCORECARD: "miss"}
    assert b"GLM-5.3-Flash providers, retitled" in client.get(SCORECARD).content

    fastest.title_en = "Fastest LLM API, retitled"
    with django_capture_on_commit_callbacks(execute=True):
        fastest.save_revision().publish()
    assert cache_status(client, FASTEST, SCORECARD) == {FASTEST: "miss", SCORECARD: "miss"}


def test_a_change_of_unknown_reach_retires_every_article(client, stored):
    from benchmarks.cache import bump_data_generation

    read_all(client, FASTEST, SCORECARD)
    bump_data_generation()  # a source renamed, a translation approved: anything may show it
    assert cache_status(client, FASTEST, SCORECARD) == {FASTEST: "miss", SCORECARD: "miss"}


def test_the_reconciler_retires_every_article_when_a_bump_was_lost(client, stored):
    from articles.reconcile import reconcile
    from benchmarks.cache import mark_reflected

    read_all(client, FASTEST, SCORECARD)
    mark_reflected("a state from before a lost bump")
    assert "page and data generations bumped" in reconcile()
    assert cache_status(client, FASTEST, SCORECARD) == {FASTEST: "miss", SCORECARD: "miss"}


def test_a_change_between_reading_what_a_page_shows_and_its_copy_is_not_kept(client, stored, monkeypatch):
    """The generations are read first: a change whose cache bump lands before the copy is read leaves an
    entry recorded under the old generations, which the next reader does not get."""
    from articles import prerender
    from benchmarks.cache import bump_dependency_generations

    fastest = stored["fastest-llm-api"]
    real = prerender.dependency_generations

    def read_then_a_change_lands(keys):
        generations = real(keys)
        bump_dependency_generations([model_key(next(iter(sorted(shown_keys(fastest)))).split(":")[1])])
        return generations

    monkeypatch.setattr(prerender, "dependency_generations", read_then_a_change_lands)
    assert client.get(FASTEST)["X-Page-Cache"] == "miss"
    monkeypatch.setattr(prerender, "dependency_generations", real)
    assert client.get(FASTEST)["X-Page-Cache"] == "miss"
    assert client.get(FASTEST)["X-Page-Cache"] == "hit"


def test_a_cdn_is_purged_of_the_articles_that_show_the_change_only(stored, fake_cdn):  # noqa: F811
    fastest, scorecard = stored["fastest-llm-api"], stored["glm-5-3-flash-providers"]
    snapshot = next(s for s in Snapshot.objects.filter(status="published").order_by("pk")
                    if set(s.model_keys()) <= shown_keys(fastest) - shown_keys(scorecard))
    row = snapshot.measurements.order_by("pk").first()
    publish_correction(snapshot, {(row.endpoint_id, row.metric): row.value + 1})
    assert any(url.endswith(FASTEST) for url in fake_cdn)
    assert any(url.endswith("/es/api-llm-mas-rapida/datos/") for url in fake_cdn)
    assert not any("glm-5-3-flash-providers" in url or "proveedores-glm" in url for url in fake_cdn), fake_cdn
