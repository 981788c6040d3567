"""Articles rendered ahead by a task (articles/prerender.py): served while exact, never after.

The whole-page cache is taken out of the middleware here (a query string no longer skips it:
config/query_contract.py), so each request reaches the article and what is checked is the stored
rendering itself."""

import datetime
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from articles.models import ArticlePage
from articles.prerender import HEADER, PrerenderedArticle, due_pages
from articles.tasks import prerender_due
from benchmarks.freshness import max_age
from benchmarks.models import Measurement
from tests.factories import (
    EndpointFactory,
    LanguageModelFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)
from tests.figures_support import publish_correction
from tests.test_render_cost import build_article

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("without_page_cache")]

ARTICLE = "/en/fastest-llm-api/"
GLM = "/en/glm-5-3-flash-providers/"


@pytest.fixture
def prerendering(settings):
    settings.ARTICLE_PRERENDER = True
    return settings


def words(html):
    return re.sub(r"\s+", " ", html).strip()


CITE_BOX = re.compile(r'<section class="cite-box".*?</section>', re.S)


def test_a_stored_copy_is_the_page_a_live_render_gives_in_each_language(client, demo_site, prerendering):
    assert prerender_due() == 2  # the two demo articles
    assert PrerenderedArticle.objects.count() == 4  # each in English and Spanish
    for url in [ARTICLE, "/es/api-llm-mas-rapida/", GLM]:
        stored = client.get(url)
        assert stored[HEADER] == "stored", url
        prerendering.ARTICLE_PRERENDER = False
        live = client.get(url)
        prerendering.ARTICLE_PRERENDER = True
        assert live[HEADER] == "live"
        if url == GLM:
            # Its trend plots the last 7 days: each render cites its own moment (PageData.
            # rolls_with_time in articles/data.py), the one whose as-of address shows that render again.
            stored_text, live_text = (CITE_BOX.sub("", text) for text in (stored.text, live.text))
            assert CITE_BOX.search(stored.text) and stored_text != stored.text
        else:
            stored_text, live_text = stored.text, live.text
        assert words(stored_text) == words(live_text), url
    assert prerender_due() == 0  # nothing is due any more


def test_new_data_stops_the_stored_copy_at_its_commit_even_without_redis(client, demo_site, prerendering):
    prerender_due()
    assert "+7,259 ms" in client.get(GLM).text
    row = Measurement.objects.get(snapshot__status="published", metric="e2e_p99", endpoint__provider__slug="fireworks")
    # No Redis bump (as when the cache is down): the database's version alone must retire the copy.
    publish_correction(row.snapshot, {(row.endpoint_id, "e2e_p99"): row.value + Decimal("0.1")}, bump=False)
    response = client.get(GLM)
    assert response[HEADER] == "live"
    assert "+7,359 ms" in response.text and "+7,259 ms" not in response.text
    assert prerender_due() == 2  # every article may show the source: both are rendered again
    response = client.get(GLM)
    assert response[HEADER] == "stored" and "+7,359 ms" in response.text


def test_publishing_this_page_or_another_one_retires_the_stored_copies(client, demo_site, prerendering):
    prerender_due()
    article = ArticlePage.objects.get(slug_en="fastest-llm-api")
    article.title = "Fastest LLM API, retitled"
    article.save_revision().publish()
    response = client.get(ARTICLE)
    assert response[HEADER] == "live" and "Fastest LLM API, retitled" in response.text

    prerender_due()
    assert client.get(ARTICLE)[HEADER] == "stored"
    # Another page's publication: an article may list or link it, so its copy is not trusted either.
    demo_site.title = "Home, renamed"
    demo_site.save_revision().publish()
    assert client.get(ARTICLE)[HEADER] == "live"


def test_a_preview_never_reads_the_stored_copy(demo_site, prerendering, django_user_model):
    prerender_due()
    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    page.title = "A draft title nobody published"
    request = RequestFactory().get(page.url)
    request.user = django_user_model.objects.create_superuser("ed", "ed@example.com", "pw")
    response = page.make_preview_request(request, "en")  # as the admin's preview panel does
    assert response[HEADER] == "live"
    assert "A draft title nobody published" in response.content.decode()


def stale_soon_article(home, minutes):
    """An article whose one figure turns stale `minutes` from now (a non-demo source)."""
    model = LanguageModelFactory(name="Soon stale")
    source = SourceFactory(title="Soon stale benchmark")
    endpoint = EndpointFactory(provider=ProviderFactory(name="Soon host"), model=model)
    measured = timezone.now() - max_age("output_speed_median") + datetime.timedelta(minutes=minutes)
    SnapshotFactory(source=source, measured_at=measured, values=[(endpoint, "output_speed_median", 321)], published=True)
    body = [{"type": "bar_chart", "value": {"model": model.pk, "source": source.pk, "metric": "output_speed_median",
                                             "name_style": "short", "note": ""}}]
    page = ArticlePage(title="Soon stale", slug="soon-stale", body=body)
    home.add_child(instance=page)
    page.save_revision().publish()
    return page, measured + max_age("output_speed_median")


def test_a_copy_expires_when_a_figure_it_shows_turns_stale(client, demo_site, prerendering):
    page, stale_at = stale_soon_article(demo_site, minutes=30)
    prerender_due()
    stored = PrerenderedArticle.objects.get(page=page, language="en")
    assert stored.valid_until == stale_at  # not the hour every copy lives at most
    assert client.get(page.url)[HEADER] == "stored"

    PrerenderedArticle.objects.filter(pk=stored.pk).update(valid_until=timezone.now() - datetime.timedelta(seconds=1))
    assert client.get(page.url)[HEADER] == "live"  # past its moment: rendered for the reader
    assert page.pk in due_pages()


def test_a_copy_due_to_expire_soon_is_rendered_again_by_beat(demo_site, prerendering):
    page, _stale_at = stale_soon_article(demo_site, minutes=1)  # within the beat's margin
    assert prerender_due() == 3
    # Still due: the copy expires before the next beat could replace it, so each beat renders it again.
    assert prerender_due() == 1


@pytest.mark.parametrize("providers", [3, 30])
def test_serving_a_stored_copy_costs_the_same_queries_whatever_the_data(client, demo_site, prerendering, providers,
                                                                          django_assert_max_num_queries):
    page = build_article(demo_site, providers, copies=3)
    prerender_due()
    client.get(page.url)
    with django_assert_max_num_queries(8):
        response = client.get(page.url)
    assert response[HEADER] == "stored"
    assert response.text.count("Host ") >= providers  # every provider is on the page


def test_counts_of_stored_and_live_serving(client, demo_site, prerendering):
    """The stored path reads no data: fewer queries than a live render of the same page."""
    page = build_article(demo_site, 10, copies=3)
    prerender_due()
    with CaptureQueriesContext(connection) as stored:
        assert client.get(page.url)[HEADER] == "stored"
    prerendering.ARTICLE_PRERENDER = False
    with CaptureQueriesContext(connection) as live:
        assert client.get(page.url)[HEADER] == "live"
    assert len(stored.captured_queries) < len(live.captured_queries)
    assert not any("benchmarks_measurement" in q["sql"] for q in stored.captured_queries)


def test_an_article_without_spanish_stores_no_spanish_copy_and_stays_404(client, demo_site, prerendering):
    page = build_article(demo_site, 3)
    prerender_due()
    assert set(PrerenderedArticle.objects.filter(page=page).values_list("language", flat=True)) == {"en"}
    page.refresh_from_db()
    assert client.get(f"/es/{page.slug_es or page.slug}/").status_code == 404


def test_a_page_that_fails_to_render_does_not_stop_the_others(demo_site, prerendering, monkeypatch, caplog):
    from articles import prerender

    real = prerender.render_copy

    def broken(page, language):
        if page.slug == "fastest-llm-api":
            raise RuntimeError("template blew up")
        return real(page, language)

    monkeypatch.setattr(prerender, "render_copy", broken)
    assert prerender_due() == 2
    assert set(PrerenderedArticle.objects.values_list("page__slug", flat=True)) == {"glm-5-3-flash-providers"}
    assert "could not pre-render article" in caplog.text


def test_switched_off_nothing_is_stored_or_read(client, demo_site, settings):
    settings.ARTICLE_PRERENDER = False
    assert prerender_due() == 0
    assert not PrerenderedArticle.objects.exists()
    assert client.get(ARTICLE)[HEADER] == "live"
