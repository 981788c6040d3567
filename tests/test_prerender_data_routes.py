"""The data page and the figure files served from the article's stored rendering
(articles/data_route_copies.py): what a live render gives, in each language, only while exact, and
without reading benchmark data. The page cache is out of the way, so each request reaches the route."""

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from articles.prerender import HEADER, PrerenderedArticle
from articles.tasks import prerender_due
from benchmarks.models import Measurement
from tests.figures_support import publish_correction
from tests.test_render_cost import build_article

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("without_page_cache")]

GLM = "/en/glm-5-3-flash-providers/"
LINK = re.compile(r'<p class="download-link"><a href="([^"]+)"')
FILE_HEADERS = ("Content-Type", "Content-Disposition", "X-Robots-Tag")


@pytest.fixture
def prerendering(settings):
    settings.ARTICLE_PRERENDER = True
    return settings


def reads_data(query):
    return any(table in query["sql"] for table in ("benchmarks_measurement", "benchmarks_snapshot", "benchmarks_price"))


def words(html):
    return re.sub(r"\s+", " ", html).strip()


def routes(client, article, data):
    files = LINK.findall(client.get(article).text)
    assert files, article
    return [article + data + "/", article + data + "/csv/", article + data + "/json/", *files]


@pytest.mark.parametrize("article, data", [(GLM, "data"), ("/es/api-llm-mas-rapida/", "datos"),
                                           ("/en/fastest-llm-api/", "data")])
def test_stored_data_page_and_files_are_what_a_live_render_gives(client, demo_site, prerendering, article, data):
    prerender_due()
    for url in routes(client, article, data):
        stored = client.get(url)
        prerendering.ARTICLE_PRERENDER = False
        live = client.get(url)
        prerendering.ARTICLE_PRERENDER = True
        assert stored.status_code == live.status_code == 200, url
        assert (stored[HEADER], live[HEADER]) == ("stored", "live"), url
        if url.endswith(f"/{data}/"):
            assert words(stored.text) == words(live.text), url
        else:  # a file: the same bytes, name and type
            assert stored.content == live.content, url
            assert [stored[name] for name in FILE_HEADERS] == [live[name] for name in FILE_HEADERS], url
    document = client.get(article + data + "/json/").json()
    assert document["url"] == "http://testserver" + article and document["figures"]


@pytest.mark.parametrize("providers", [3, 30])
def test_a_stored_data_page_or_file_reads_no_data_whatever_its_size(client, demo_site, prerendering, providers):
    page = build_article(demo_site, providers, copies=2)
    prerender_due()
    counts = {}
    for url in routes(client, page.url, "data"):
        with CaptureQueriesContext(connection) as stored:
            response = client.get(url)
        assert response[HEADER] == "stored" and response.status_code == 200, url
        assert not any(reads_data(query) for query in stored.captured_queries), url
        counts[url] = len(stored.captured_queries)
    # Routing, the page and the one stored row: as many as the stored article (tests/test_prerender.py).
    assert max(counts.values()) <= 8, counts
    assert f"Host {providers}-2-{providers - 1}" in client.get(page.url + "data/").text  # every provider


def test_new_data_retires_the_stored_data_page_and_files_at_its_commit(client, demo_site, prerendering):
    prerender_due()
    block = next(url for url in LINK.findall(client.get(GLM).text) if "'+7,259 ms" in client.get(url).text)
    assert client.get(block)[HEADER] == "stored" and "+7,259 ms" in client.get(GLM + "data/").text
    row = Measurement.objects.get(snapshot__status="published", metric="e2e_p99", endpoint__provider__slug="fireworks")
    # No Redis bump (as when the cache is down): the database's content version alone retires the copies.
    publish_correction(row.snapshot, {(row.endpoint_id, "e2e_p99"): row.value + Decimal("0.1")}, bump=False)
    for url in (block, GLM + "data/", GLM + "data/csv/"):
        response = client.get(url)
        assert response[HEADER] == "live" and "+7,359 ms" in response.text and "+7,259 ms" not in response.text, url
    prerender_due()
    for url in (block, GLM + "data/", GLM + "data/json/"):
        response = client.get(url)
        assert response[HEADER] == "stored" and "+7,359 ms" in response.text, url


@pytest.mark.parametrize("block_id", ["not-on-this-article", "12345"])
def test_a_block_the_stored_copy_does_not_list_is_a_404_without_a_live_render(client, demo_site, prerendering,
                                                                            block_id):
    prerender_due()
    assert PrerenderedArticle.objects.filter(block_csvs__has_key=LINK.findall(client.get(GLM).text)[0].split("/")[-2])
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(f"{GLM}data/csv/{block_id}/")
    assert response.status_code == 404
    assert not any(reads_data(query) for query in ctx.captured_queries)
