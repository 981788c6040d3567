"""Listings print each article's summary with its statements checked (issue 24) without judging them
while the listing renders: the pre-render task stores the checked summary with the article, and the
home page reads them all in one query, whatever the number of articles."""

import pytest
from bs4 import BeautifulSoup
from django.db import connection
from django.test.utils import CaptureQueriesContext

from articles.models import ArticlePage
from articles.tasks import prerender_due
from tests.figures_support import glm_data
from tests.test_statements import article, correct_fast, leads, statement

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("without_page_cache")]

CLAIM = "Baseten’s premium tier leads GLM-5.3."
PLAIN = "Which host is quickest depends on the model."


@pytest.fixture
def prerendering(settings):
    settings.ARTICLE_PRERENDER = True
    return settings


@pytest.fixture
def glm():
    return glm_data()


def articles_with_checked_summaries(glm, count):
    claim = statement(leads(glm), CLAIM)
    for _ in range(count):
        page = article(glm)
        ArticlePage.objects.filter(pk=page.pk).update(summary_en=f"<p>{PLAIN} {claim}</p>", search_description_en="")


def home(client):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/en/")
    assert response.status_code == 200
    items = [item.get_text(" ", strip=True) for item in BeautifulSoup(response.content, "html.parser")
             .select(".article-list li p")]
    return items, len(queries)


def test_the_home_listing_reads_stored_checked_summaries_in_queries_that_do_not_grow(client, glm, prerendering):
    articles_with_checked_summaries(glm, 2)
    prerender_due()
    items, few = home(client)
    assert items == [f"{PLAIN} {CLAIM}"] * 2

    articles_with_checked_summaries(glm, 4)
    prerender_due()
    items, many = home(client)
    assert items == [f"{PLAIN} {CLAIM}"] * 6
    assert many == few


def test_after_a_correction_the_listing_drops_the_false_claim_before_and_after_the_task(client, glm, prerendering):
    articles_with_checked_summaries(glm, 2)
    prerender_due()
    correct_fast(glm)
    # The stored copies are no longer exact: checked live meanwhile, never printed as they were.
    items, _ = home(client)
    assert items == [PLAIN] * 2
    prerender_due()
    items, _ = home(client)
    assert items == [PLAIN] * 2
