"""Redis stopped mid-test: every public page is still served from the database, the admin works,
a warning is logged, and no page shows figures older than the database's.

The test starts its own throwaway redis-server (the shared one on 6379 serves other test runs)."""

import logging
import shutil
import socket
import subprocess
import time
from decimal import Decimal

import pytest
import redis

from config.cache_backend import redis_cache

from .admin_forms import form_data

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed"),
]

PUBLIC_PAGES = [
    "/en/",
    "/es/",
    "/en/fastest-llm-api/",
    "/en/fastest-llm-api/data/",
    "/es/api-llm-mas-rapida/",
    "/es/api-llm-mas-rapida/datos/",
    "/en/glm-5-3-flash-providers/",
    "/sitemap.xml",
]


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ThrowawayRedis:
    def __init__(self):
        self.port = free_port()
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        for _ in range(100):
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("throwaway redis-server did not start")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def keys(self):
        return redis.Redis(port=self.port).dbsize()


@pytest.fixture
def own_redis(settings):
    server = ThrowawayRedis()
    server.start()
    # Short retry window so the "back again" half of the test does not wait long.
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{server.port}/0", "outage", RETRY_AFTER_SECONDS=0.2)}
    yield server
    server.stop()


def test_pages_and_admin_survive_redis_stopping(client, demo_site, own_redis, caplog, django_user_model):
    for url in PUBLIC_PAGES:
        assert client.get(url).status_code == 200
    assert own_redis.keys() > 0  # the cache was really in use before the outage

    own_redis.stop()
    caplog.set_level(logging.WARNING, logger="config.cache")
    for url in PUBLIC_PAGES:
        response = client.get(url)
        assert response.status_code == 200, url
    assert "Artificial Analysis" in client.get("/en/fastest-llm-api/").text  # figures and sources, from the DB
    warnings = [r for r in caplog.records if r.name == "config.cache" and r.levelno == logging.WARNING]
    assert len(warnings) == 1  # one warning per outage, not one traceback per cache call
    assert "Cache unreachable" in warnings[0].getMessage()

    # The admin works: log in through the form (sessions live in the database), dashboard, editor.
    django_user_model.objects.create_superuser("ops", "ops@example.com", "pw-ops-123")
    login = client.post("/admin/login/", {"username": "ops", "password": "pw-ops-123"})
    assert login.status_code == 302
    from articles.models import ArticlePage

    article = ArticlePage.objects.get(slug_en="fastest-llm-api")
    for url in ["/admin/", f"/admin/pages/{article.pk}/edit/", f"/admin/pages/{article.pk}/", "/admin/snippets/benchmarks/snapshot/"]:
        assert client.get(url).status_code == 200, url

    # Publishing works too, and readers see the change at once.
    edit_url = f"/admin/pages/{demo_site.pk}/edit/"
    data = form_data(client.get(edit_url).text, "page-edit-form")
    data.update({"title_en": "Published while the cache was down", "action-publish": "1"})
    assert client.post(edit_url, data).status_code == 302
    client.logout()
    assert "Published while the cache was down" in client.get("/en/").text


def test_data_changed_during_an_outage_shows_at_once_and_after_recovery(client, demo_site, own_redis):
    from benchmarks.cache import bump_data_generation
    from benchmarks.models import Measurement
    from tests.figures_support import publish_correction

    url = "/en/glm-5-3-flash-providers/"
    assert "+7,259 ms" in client.get(url).text  # now cached under the current generation

    own_redis.stop()
    row = Measurement.objects.get(
        snapshot__status="published", metric="e2e_p99", endpoint__provider__slug="fireworks"
    )
    # Published history is immutable: the change arrives as a correction, as an editor would make it.
    publish_correction(row.snapshot, {(row.endpoint_id, "e2e_p99"): row.value + Decimal("0.1")})
    bump_data_generation()  # fails quietly: Redis is down
    assert "+7,359 ms" in client.get(url).text  # rendered from the database, not an old copy

    # Redis back (empty, as after a restart): pages are cached again and still current.
    own_redis.start()
    time.sleep(0.3)  # past the retry window
    assert "+7,359 ms" in client.get(url).text
    assert "+7,359 ms" in client.get(url).text
    assert own_redis.keys() > 0
