"""Anonymous readers get whole pages from the cache (no database query), with ETag and conditional
GET; publishing and new data purge them; logged-in users, previews and the admin are never cached;
a CDN in front is purged through Wagtail's frontend cache."""

import gzip
import http.server
import threading
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.figures_support import publish_correction

pytestmark = pytest.mark.django_db

ARTICLE = "/en/glm-5-3-flash-providers/"


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def get(client, url, **headers):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers=headers)
    return response, len(ctx.captured_queries)


@pytest.mark.parametrize("url", [ARTICLE, ARTICLE + "data/", "/es/api-llm-mas-rapida/", "/en/"])
def test_second_anonymous_read_comes_from_the_cache_without_queries(client, demo_site, url):
    first, first_queries = get(client, url)
    second, second_queries = get(client, url)
    assert first.status_code == second.status_code == 200
    assert first["X-Page-Cache"] == "miss" and second["X-Page-Cache"] == "hit"
    assert first_queries > 0 and second_queries == 0
    assert second.content == first.content
    assert second["ETag"] == first["ETag"]
    assert "public" in second["Cache-Control"] and "max-age=" in second["Cache-Control"]


def test_conditional_get_answers_304_from_the_cache(client, demo_site):
    etag = client.get(ARTICLE)["ETag"]
    response, queries = get(client, ARTICLE, if_none_match=etag)
    assert response.status_code == 304 and response.content == b"" and queries == 0
    assert get(client, ARTICLE, if_none_match='"other"')[0].status_code == 200


def test_compressed_copy_for_browsers_that_accept_gzip(client, demo_site):
    plain = client.get(ARTICLE)
    compressed = client.get(ARTICLE, headers={"accept-encoding": "gzip, br"})
    assert compressed["Content-Encoding"] == "gzip"
    assert gzip.decompress(compressed.content) == plain.content
    assert compressed["ETag"] != plain["ETag"]
    assert "Accept-Encoding" in compressed["Vary"]


def test_languages_are_cached_apart(client, demo_site):
    english = client.get("/en/fastest-llm-api/")
    spanish = client.get("/es/api-llm-mas-rapida/")
    assert english["Content-Language"] == "en" and spanish["Content-Language"] == "es"
    assert client.get("/es/api-llm-mas-rapida/")["Content-Language"] == "es"


def test_logged_in_users_and_the_admin_are_never_cached(editor_client, demo_site):
    client = Client()
    editor_view = editor_client.get(ARTICLE)
    assert editor_view["X-Page-Cache"] == "skip"
    assert "private" in editor_view["Cache-Control"]
    assert editor_client.get("/admin/")["X-Page-Cache"] == "skip"
    # The editor's page (with the Wagtail user bar) was not stored for readers.
    reader = client.get(ARTICLE)
    assert reader["X-Page-Cache"] == "miss"
    assert b"wagtail-userbar" not in reader.content


def test_preview_of_a_draft_never_reaches_readers(editor_client, demo_site):
    from articles.models import ArticlePage

    client = Client()
    page = ArticlePage.objects.get(slug_en="glm-5-3-flash-providers")
    client.get(ARTICLE)  # cached
    page.title_en = "Draft title nobody may read yet"
    page.save_revision()
    preview = editor_client.get(f"/admin/pages/{page.pk}/edit/preview/?mode=en")
    assert preview["X-Page-Cache"] == "skip"
    for _ in range(2):
        assert b"Draft title nobody may read yet" not in client.get(ARTICLE).content


def test_publishing_purges_the_cached_page(client, demo_site, django_capture_on_commit_callbacks):
    from articles.models import ArticlePage

    client.get(ARTICLE)
    assert client.get(ARTICLE)["X-Page-Cache"] == "hit"
    page = ArticlePage.objects.get(slug_en="glm-5-3-flash-providers")
    page.title_en = "A new title, published"
    with django_capture_on_commit_callbacks(execute=True):
        page.save_revision().publish()
    response = client.get(ARTICLE)
    assert response["X-Page-Cache"] == "miss"
    assert b"A new title, published" in response.content
    # The home page lists the article: it was purged too.
    assert b"A new title, published" in client.get("/en/").content


def test_new_data_purges_article_and_data_page(client, demo_site):
    from benchmarks.cache import bump_data_generation
    from benchmarks.models import Measurement

    data_page = client.get(ARTICLE + "data/").content
    assert b"+7,259 ms" in client.get(ARTICLE).content
    row = Measurement.objects.get(snapshot__status="published", metric="e2e_p99", endpoint__provider__slug="fireworks")
    # Published history is immutable: the change arrives as a correction (published here without the
    # generation bump a correction in the admin makes, to see the cached copy first).
    publish_correction(row.snapshot, {(row.endpoint_id, row.metric): row.value + Decimal("0.1")}, bump=False)
    assert b"+7,259 ms" in client.get(ARTICLE).content  # same generation: the cached copy
    bump_data_generation()
    assert b"+7,359 ms" in client.get(ARTICLE).content
    assert client.get(ARTICLE + "data/").content != data_page


class PurgeRecorder(http.server.BaseHTTPRequestHandler):
    seen = []

    def do_PURGE(self):  # noqa: N802 (HTTP method name)
        self.seen.append(f"http://{self.headers['Host']}{self.path}")
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def fake_cdn(settings):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), PurgeRecorder)
    PurgeRecorder.seen = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.WAGTAILFRONTENDCACHE = {
        "http": {
            "BACKEND": "wagtail.contrib.frontend_cache.backends.HTTPBackend",
            "LOCATION": f"http://127.0.0.1:{server.server_port}/",
        }
    }
    yield PurgeRecorder.seen
    server.shutdown()


def test_cdn_is_purged_in_every_language_on_publish_and_on_new_data(demo_site, fake_cdn, django_capture_on_commit_callbacks):
    from articles.models import ArticlePage
    from benchmarks.cache import bump_data_generation

    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    with django_capture_on_commit_callbacks(execute=True):
        page.save_revision().publish()
    for path in ("/en/fastest-llm-api/", "/en/fastest-llm-api/data/", "/es/api-llm-mas-rapida/",
                 "/es/api-llm-mas-rapida/datos/", "/en/", "/es/"):
        assert any(url.endswith(path) for url in fake_cdn), (path, fake_cdn)

    fake_cdn.clear()
    bump_data_generation()
    assert any(url.endswith("/en/glm-5-3-flash-providers/data/") for url in fake_cdn)
    assert any(url.endswith("/es/api-llm-mas-rapida/") for url in fake_cdn)


def test_worker_copies_answer_without_redis_and_see_other_processes_bumps_within_a_second(client, demo_site, settings):
    import time

    from config.page_cache import PAGES_GENERATION_KEY, local

    settings.PAGE_CACHE_LOCAL_SECONDS = 1
    local.forget_generations()
    client.get(ARTICLE)
    cache.clear()  # Redis loses everything: the worker's own copy still answers
    assert client.get(ARTICLE)["X-Page-Cache"] == "hit"
    # Another process publishes (bumps the page generation in Redis): seen within a second.
    cache.set(PAGES_GENERATION_KEY, 123456789, timeout=None)
    time.sleep(1.1)
    assert client.get(ARTICLE)["X-Page-Cache"] == "miss"
    # A bump made in this process is seen at once.
    from config.page_cache import bump_page_generation

    assert client.get(ARTICLE)["X-Page-Cache"] == "hit"
    bump_page_generation()
    assert client.get(ARTICLE)["X-Page-Cache"] == "miss"


def test_cdn_purge_is_queued_for_a_worker_not_done_in_the_publish(demo_site, fake_cdn, settings, monkeypatch,
                                                                  django_capture_on_commit_callbacks):
    from articles import tasks
    from articles.models import ArticlePage

    queued = []
    monkeypatch.setattr(tasks.purge_cdn_urls, "delay", lambda urls: queued.append(urls))
    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    with django_capture_on_commit_callbacks(execute=True):
        page.save_revision().publish()
    assert fake_cdn == []  # nothing sent to the CDN while the editor waits
    assert any(url.endswith("/es/api-llm-mas-rapida/") for url in queued[0])
    tasks.purge_cdn_urls.apply(args=[queued[0]])  # what the worker does
    assert any(url.endswith("/es/api-llm-mas-rapida/") for url in fake_cdn)


def test_cdn_is_purged_inline_when_the_broker_is_down(demo_site, fake_cdn, monkeypatch, caplog,
                                                      django_capture_on_commit_callbacks):
    from kombu.exceptions import OperationalError

    from articles import tasks
    from articles.models import ArticlePage

    def broker_down(urls):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.purge_cdn_urls, "delay", broker_down)
    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    with django_capture_on_commit_callbacks(execute=True):
        page.save_revision().publish()
    assert any(url.endswith("/en/fastest-llm-api/") for url in fake_cdn)
    assert "Could not queue the CDN purge" in caplog.text
