"""A deploy retires what the old code made: stored renderings and cached whole pages record the code
version they were made by (config/code_version.py) and match only the running one, so new templates,
translations or an escaping fix reach readers at once, not when the copies expire (an hour)."""

import pytest
from django.core.cache import cache
from django.test import Client

from articles.prerender import due_pages
from articles.tasks import prerender_due
from config import code_version

pytestmark = pytest.mark.django_db

ARTICLE = "/en/fastest-llm-api/"


@pytest.fixture
def deploy(settings):
    """Run "new code": another RENDERING_VERSION (a deploy may name its commit)."""
    def run(name):
        settings.RENDERING_VERSION = name
        code_version.code_version.cache_clear()
    yield run
    code_version.code_version.cache_clear()


def test_a_deploy_retires_stored_renderings_and_cached_pages(demo_site, deploy):
    cache.clear()
    deploy("release-1")
    prerender_due()
    reader = Client()
    assert reader.get(ARTICLE)["X-Article-Render"] == "stored"
    assert reader.get(ARTICLE)["X-Page-Cache"] == "hit"
    assert due_pages() == []

    deploy("release-2")
    assert due_pages(), "the new code's task renders every article again"
    fresh = reader.get(ARTICLE)
    assert fresh["X-Page-Cache"] == "miss" and fresh["X-Article-Render"] == "live"
    prerender_due()
    assert due_pages() == [] and Client().get("/es/api-llm-mas-rapida/")["X-Article-Render"] == "stored"


def test_the_version_is_a_digest_of_the_files_when_no_release_is_named(settings):
    settings.RENDERING_VERSION = ""
    code_version.code_version.cache_clear()
    first = code_version.code_version()
    code_version.code_version.cache_clear()
    assert code_version.code_version() == first and len(first) == 12
    code_version.code_version.cache_clear()
