"""Query strings cannot flood the site. A parameter a page's route does not declare
(config/query_contract.py) never reaches the route and is not part of the page cache's key, so
`?nocache=<random>` is answered from the clean URL's cached copy instead of a render per string; a
page-cache miss of the article, its data page or a file is served from the stored rendering; a
declared parameter still reaches its route and keys a copy of its own."""

import re
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.template import engines
from django.test import Client
from django.test.utils import CaptureQueriesContext

from articles.models import ArticlePage, HomePage
from articles.prerender import HEADER as RENDER
from articles.tasks import prerender_due
from config.query_contract import QueryContractMixin

pytestmark = pytest.mark.django_db

ARTICLE = "/en/glm-5-3-flash-providers/"
LINK = re.compile(r'<p class="download-link"><a href="([^"]+)"')


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def noise():
    return f"nocache={uuid.uuid4().hex}&utm_source=x{uuid.uuid4().hex[:8]}"


def get(client, url, **headers):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers=headers)
    return response, ctx.captured_queries


def block_file(client):
    return LINK.findall(Client().get(ARTICLE).text)[0]


@pytest.mark.parametrize("path", ["", "data/", "data/csv/", "data/json/", "block"])
def test_random_query_strings_are_answered_from_the_clean_urls_copy(client, demo_site, settings, path):
    settings.ARTICLE_PRERENDER = True
    prerender_due()
    url = block_file(client) if path == "block" else ARTICLE + path
    cache.clear()
    first, queries = get(client, f"{url}?{noise()}")
    assert first.status_code == 200 and first["X-Page-Cache"] == "miss"
    # The miss itself is cheap: the stored rendering, no benchmark data read.
    assert first[RENDER] == "stored"
    assert not any("benchmarks_measurement" in query["sql"] for query in queries)
    for _ in range(3):
        again, queries = get(client, f"{url}?{noise()}")
        assert again["X-Page-Cache"] == "hit" and queries == []
        assert again.content == first.content and again["ETag"] == first["ETag"]
    clean, queries = get(client, url)
    assert clean["X-Page-Cache"] == "hit" and queries == [] and clean.content == first.content


def test_conditional_get_and_head_with_random_query_strings_stay_cached(client, demo_site):
    etag = client.get(f"{ARTICLE}?{noise()}")["ETag"]
    response, queries = get(client, f"{ARTICLE}?{noise()}", if_none_match=etag)
    assert response.status_code == 304 and queries == []
    head = client.head(f"{ARTICLE}data/?{noise()}")
    assert head["X-Page-Cache"] == "miss" and head.content == b""
    head = client.head(f"{ARTICLE}data/?{noise()}")
    assert head["X-Page-Cache"] == "hit" and int(head["Content-Length"]) > 1000


def test_unknown_parameters_never_reach_the_output(client, demo_site):
    marker = "zz" + uuid.uuid4().hex
    query = f"utm_source={marker}&q=%22%3E%3Cb%3E{marker}"
    for path in ["", "data/", "data/csv/", "data/json/"]:
        response = client.get(f"{ARTICLE}{path}?{query}")
        assert response.status_code == 200 and marker not in response.content.decode(), path
    assert client.get(f"{ARTICLE}data/json/?{query}").json()["url"] == "http://testserver" + ARTICLE
    # The other language's segment redirects to this one's with the parameters the route reads: none.
    moved = client.get(f"{ARTICLE}datos/?{query}")
    assert moved.status_code == 301 and moved["Location"] == ARTICLE + "data/"


@pytest.fixture
def home_reads_p(monkeypatch):
    """The home page's route declares `p` and prints what reaches it (no public route reads a
    parameter today; this stands for the first one that will)."""
    echo = engines["django"].from_string(
        "p={{ request.GET.p }} get={{ request.GET.urlencode }} path={{ request.get_full_path }}"
    )
    monkeypatch.setattr(HomePage, "query_parameters", {"page": ("p",)})
    monkeypatch.setattr(HomePage, "get_template", lambda self, request, *args, **kwargs: echo)


def test_a_declared_parameter_reaches_its_route_and_keys_its_own_copy(client, demo_site, home_reads_p):
    first = client.get("/en/?p=2&utm_source=a")
    assert first["X-Page-Cache"] == "miss" and first.text == "p=2 get=p=2 path=/en/?p=2"
    same = client.get("/en/?utm_source=b&p=2")
    assert same["X-Page-Cache"] == "hit" and same.text == first.text
    other = client.get("/en/?p=3")
    assert other["X-Page-Cache"] == "miss" and other.text == "p=3 get=p=3 path=/en/?p=3"
    bare = client.get("/en/?x=1")
    assert bare["X-Page-Cache"] == "miss" and bare.text == "p= get= path=/en/"
    assert client.get("/en/?x=2")["X-Page-Cache"] == "hit"
    # Found through the clean URL's copy, which names the route's parameters.
    again, queries = get(client, "/en/?x=3&p=3")
    assert again["X-Page-Cache"] == "hit" and again.text == other.text and queries == []


def test_a_view_without_a_contract_gets_its_parameters_and_is_not_kept(client, demo_site):
    # Wagtail's front-end login under the language prefix is not a page: it reads `next` itself.
    response = client.get("/en/_util/login/?next=/en/fastest-llm-api/")
    assert response.status_code == 200 and "/en/fastest-llm-api/" in response.text
    assert response["X-Page-Cache"] == "skip" and "private" in response["Cache-Control"]


def test_logged_in_readers_with_a_query_string_are_still_never_cached(editor_client, demo_site):
    editor_view = editor_client.get(f"{ARTICLE}?{noise()}")
    assert editor_view["X-Page-Cache"] == "skip" and "private" in editor_view["Cache-Control"]
    reader = Client().get(f"{ARTICLE}?{noise()}")
    assert reader["X-Page-Cache"] == "miss" and b"wagtail-userbar" not in reader.content


def test_every_page_model_declares_each_routes_parameters(monkeypatch):
    from wagtail.models import Page, get_page_models

    for model in get_page_models():
        if model is not Page:
            assert issubclass(model, QueryContractMixin), model
            assert [error.id for error in model.check() if error.id.startswith("config.")] == [], model
    routes = {name: names for name, names in ArticlePage.query_parameters.items() if name != "block_csv"}
    monkeypatch.setattr(ArticlePage, "query_parameters", {**routes, "data_trail": "p"})
    errors = {error.id: error.msg for error in ArticlePage.check() if error.id.startswith("config.")}
    assert "block_csv" in errors["config.E101"] and "data_trail" in errors["config.E102"]
