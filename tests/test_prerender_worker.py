"""Pre-rendered articles with the real parts: a Celery worker that stores them after a publish, and
a Redis that stops while readers keep getting them from PostgreSQL."""

import shutil
import time
import uuid

import pytest

from articles.models import ArticlePage
from articles.prerender import HEADER
from articles.tasks import prerender_due
from tests.test_cache_outage import own_redis  # noqa: F401 (fixture)
from tests.worker_support import celery_worker

ARTICLE = "/en/fastest-llm-api/"


def wagtail_root():
    """What Wagtail's migrations create and an earlier transactional test's flush may have removed: the
    default locale and the root page. (Serialized rollback cannot restore them here: a flush without
    it re-creates the content types, which the snapshot then inserts a second time.)"""
    from django.conf import settings
    from django.contrib.contenttypes.models import ContentType
    from wagtail.models import Locale, Page

    locale, _created = Locale.objects.get_or_create(language_code=settings.LANGUAGE_CODE)
    if not Page.objects.filter(depth=1).exists():
        Page.objects.create(title="Root", draft_title="Root", slug="root", path="0001", depth=1, numchild=0,
                            url_path="/", locale=locale, content_type=ContentType.objects.get_for_model(Page))


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_stores_the_article_after_an_editor_publishes(client, settings, without_page_cache):
    from django.core.management import call_command

    from articles.demo import load_demo_site

    wagtail_root()
    call_command("update_translation_fields", verbosity=0)  # as `make run`
    settings.ARTICLE_PRERENDER = False  # the demo loads without rendering anything ahead
    load_demo_site()
    settings.ARTICLE_PRERENDER = True
    queue = f"test-prerender-{uuid.uuid4().hex[:8]}"
    settings.ARTICLE_PRERENDER_QUEUE = queue
    with celery_worker(queue) as proc:
        page = ArticlePage.objects.get(slug_en="fastest-llm-api")
        page.title = "Retitled, then rendered by the worker"
        page.save_revision().publish()  # committed at once: the task goes to the worker's queue
        first = client.get(ARTICLE)
        assert "Retitled, then rendered by the worker" in first.text  # live until the worker is done
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            response = client.get(ARTICLE)
            if response[HEADER] == "stored":
                break
            assert proc.poll() is None, "the worker died"
            time.sleep(0.5)
        else:
            pytest.fail("the worker stored no rendering within 90 s")
    assert "Retitled, then rendered by the worker" in response.text


@pytest.mark.django_db
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed")
def test_stored_articles_are_served_while_redis_is_down(client, demo_site, own_redis, settings):  # noqa: F811
    settings.ARTICLE_PRERENDER = True
    prerender_due()
    own_redis.stop()
    for url in [ARTICLE, "/es/api-llm-mas-rapida/", "/en/glm-5-3-flash-providers/"]:
        response = client.get(url)  # the page cache is down with Redis
        assert response.status_code == 200, url
        assert response[HEADER] == "stored", url
