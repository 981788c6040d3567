"""Citable versions (issue 25): every state a reader could have seen is at a permanent address,
/<language>/<slug>/as-of/<YYYYMMDDTHHMMSSZ>/, which renders the revision live then with the data in
force then, under a banner linking to the current version; archived versions are noindex and may be
cached for a year."""

import datetime
import re
import time
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.utils import timezone
from wagtail.models import PageLogEntry

from articles.models import ArticlePage
from tests.figures_support import glm_data, publish_correction
from tests.test_change_log import english_url, spanish_url, text_of
from tests.versions_support import ago, as_of, novita_first_chunk, publish_edit, versioned_article
from tests.workspace_support import approve_spanish

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


@pytest.fixture
def glm():
    return glm_data()


@pytest.fixture
def article(glm):
    return versioned_article(glm)


def test_a_correction_after_t0_leaves_the_t0_address_as_it_was(client, glm, article):
    t0 = ago(minutes=30)
    before = text_of(client.get(as_of(article, t0)))
    assert novita_first_chunk(before) == "2.51"
    publish_correction(glm["snapshot"], {(glm["novita"].pk, "ttfc_median"): Decimal("2.01")})

    assert novita_first_chunk(text_of(client.get(english_url(article)))) == "2.01"
    cache.clear()
    after = client.get(as_of(article, t0))
    assert novita_first_chunk(text_of(after)) == "2.51"
    assert text_of(after) == before


def test_the_address_shows_the_revision_live_then(client, article):
    t0 = ago(minutes=30)
    body = [{"type": "paragraph", "value": "<p>Rewritten after the first publication.</p>"}]
    publish_edit(article, title_en="GLM page, rewritten", body_en=body)

    old = text_of(client.get(as_of(article, t0)))
    assert "GLM page" in old and "GLM page, rewritten" not in old and "Rewritten after" not in old
    assert "Novita AI" in old  # the table the old revision had
    current = text_of(client.get(english_url(article)))
    assert "GLM page, rewritten" in current and "Rewritten after the first publication." in current
    # A moment after the new publication shows the new revision.
    time.sleep(1.1)
    latest = text_of(client.get(as_of(article, ago(seconds=1))))
    assert "Rewritten after the first publication." in latest


def test_archived_versions_are_noindex_and_cached_for_a_year_with_a_banner(client, article):
    response = client.get(as_of(article, ago(minutes=30)))
    assert response.status_code == 200
    assert '<meta name="robots" content="noindex">' in response.text
    directives = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"public", "max-age=31536000", "immutable"} <= directives, response["Cache-Control"]
    banner = re.search(r'<p class="as-of-banner"[^>]*>(.*?)</p>', response.text, re.S).group(1)
    assert "You are reading this article as it was on" in banner
    assert f'href="{english_url(article)}"' in banner
    # The current page is not an archived version.
    current = client.get(english_url(article))
    assert "noindex" not in current.text and "immutable" not in current.get("Cache-Control", "")


def test_a_cached_copy_keeps_the_year_long_lifetime(client, article):
    address = as_of(article, ago(minutes=30))
    first = client.get(address)
    again = client.get(address)
    assert (first["X-Page-Cache"], again["X-Page-Cache"]) == ("miss", "hit")
    for response in (first, again):
        assert "immutable" in response["Cache-Control"] and "max-age=31536000" in response["Cache-Control"]


def test_before_the_first_publication_is_404_and_the_future_goes_to_the_current_page(client, article):
    assert client.get(as_of(article, ago(hours=3))).status_code == 404
    assert client.get(as_of(article, ago(hours=3), "es")).status_code == 404
    response = client.get(as_of(article, timezone.now() + datetime.timedelta(days=1)))
    assert response.status_code == 302 and response["Location"] == english_url(article)
    assert client.get(english_url(article) + "as-of/20261302T000000Z/").status_code == 404  # no 13th month
    assert client.get(english_url(article) + "as-of/2026-12-02/").status_code == 404


def test_a_withdrawn_page_has_no_version_for_that_time(client, article):
    page = ArticlePage.objects.get(pk=article.pk)
    page.unpublish()
    PageLogEntry.objects.filter(page_id=page.pk, action="wagtail.unpublish").update(timestamp=ago(hours=1))
    page.save_revision().publish()  # live again now
    time.sleep(1.1)
    assert client.get(as_of(article, ago(minutes=90))).status_code == 200
    assert client.get(as_of(article, ago(minutes=30))).status_code == 404
    assert client.get(as_of(article, ago(seconds=1))).status_code == 200


def test_the_spanish_version_at_a_moment(client, glm, article):
    t0 = ago(minutes=30)
    approve_spanish(article, {"title": "Página GLM, reescrita"})
    publish_correction(glm["snapshot"], {(glm["novita"].pk, "ttfc_median"): Decimal("2.01")})

    response = client.get(as_of(article, t0, "es"))
    text = text_of(response)
    assert '<html lang="es">' in response.text
    assert "GLM page (ES)" in text and "reescrita" not in text
    assert novita_first_chunk(text) == "2.51"
    assert "Estás leyendo este artículo tal como estaba el" in text
    assert f'href="{spanish_url(article)}"' in response.text
    assert "Página GLM, reescrita" in text_of(client.get(spanish_url(article)))
