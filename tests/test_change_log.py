"""Readers follow every change of a figure an article shows: a public change log per article
(/en/<slug>/changes/, /es/<slug>/cambios/), newest first and paginated, linked from the "Updated"
line, and Atom feeds per article and for the whole site, in both languages."""

import re
from decimal import Decimal

import feedparser
import pytest
from django.core.cache import cache

from reviews.models import ChangeSet, FigureChange
from tests.figures_support import glm_data, make_article, publish_correction, publish_new_snapshot, table
from tests.pagecheck import VisibleText

pytestmark = pytest.mark.django_db

NOTE = "Novita AI re-measured after a timeout"


def empty_own_cache():
    """Remove this test process's keys only. cache.clear() is FLUSHDB: the test runs on this machine
    share one Redis database (each under its own key prefix, config/settings/test.py), and a flush
    would also empty theirs in the middle of whatever they are measuring."""
    from django_redis.client.default import glob_escape

    redis = cache.client.get_client(write=True)
    keys = list(redis.scan_iter(match=f"{glob_escape(cache.key_prefix)}:*", count=1000))
    if keys:
        redis.delete(*keys)


@pytest.fixture(autouse=True)
def empty_cache():
    empty_own_cache()


@pytest.fixture
def glm():
    return glm_data()


@pytest.fixture
def article(glm):
    return make_article([table(glm)], sources=[glm["source"], glm["pricing"]], title="GLM page")


def spanish_url(page):
    from localized.alternates import translated_url

    return translated_url(page, "es")


def english_url(page):
    # Not page.url: that follows whichever language the last request left active.
    from localized.alternates import translated_url

    return translated_url(page, "en")


def corrected(glm):
    return publish_correction(glm["snapshot"], {(glm["novita"].pk, "ttfc_median"): Decimal("2.01")}, note=NOTE)


def text_of(response):
    """The visible text, one space between elements and words (table cells stay apart)."""
    assert response.status_code == 200
    parser = VisibleText()
    parser.feed(response.text)
    return " ".join(" ".join(parser.parts).split())


def test_a_correction_is_listed_with_its_date_figure_values_source_and_note(client, glm, article):
    correction = corrected(glm)

    text = text_of(client.get(english_url(article) + "changes/"))
    assert "Provider table · GLM-5.3 (block 1) Novita AI · First chunk 2.51 2.01" in text
    assert "Correction · Source: Artificial Analysis" in text
    assert f"snapshot #{correction.pk}, measured {correction.measured_at:%Y-%m-%d %H:%M}" in text
    assert f"Correction note: {NOTE}" in text
    html = client.get(english_url(article) + "changes/").text
    assert f'href="{glm["source"].url}"' in html
    assert f'datetime="{correction.published_at.isoformat()}"' in html

    spanish = text_of(client.get(spanish_url(article) + "cambios/"))
    # The values as the Spanish page printed them when the change was recorded.
    assert "Tabla de proveedores · GLM-5.3 (bloque 1) Novita AI · Primer fragmento 2.51 2.01" in spanish
    assert "Corrección · Fuente: Artificial Analysis" in spanish
    assert f"Nota de corrección: {NOTE}" in spanish
    assert "Correction" not in spanish and "Source:" not in spanish
    # The editor's note is English (it has no Spanish field): marked as such for screen readers.
    html = client.get(spanish_url(article) + "cambios/").text
    assert f'<span lang="en">{NOTE}</span>' in html
    assert f'<span lang="en">{NOTE}</span>' not in client.get(english_url(article) + "changes/").text


def test_the_spanish_change_log_shows_no_english_interface_text(client, glm, article):
    from tests.po_catalog import read_po
    from tests.test_i18n_catalog import (
        PO,
        english_interface_strings,
        english_leaks,
        fallen_back_data,
        perceived_text,
        without,
    )

    corrected(glm)
    strings = english_interface_strings(read_po(PO))
    # The test data's own English (titles, source names) is data, not interface text.
    data = [*fallen_back_data(), "GLM page", "Other page", str(glm["source"]), "GLM-5.3 providers"]
    page = client.get(spanish_url(article) + "cambios/").text
    assert english_leaks(without(perceived_text(page, "es"), data), strings) == []
    empty = make_article([table(glm)], title="Other page")
    empty_page = client.get(spanish_url(empty) + "cambios/").text
    assert english_leaks(without(perceived_text(empty_page, "es"), data), strings) == []
    # The check finds the English page's interface text, or it could never fail.
    assert english_leaks(perceived_text(client.get(english_url(article) + "changes/").text, "en"), strings)


def test_the_other_languages_segment_redirects_and_a_page_without_changes_says_so(client, article):
    response = client.get(spanish_url(article) + "changes/")
    assert response.status_code == 301 and response["Location"] == spanish_url(article) + "cambios/"
    assert "No figure on this page has changed since it was published." in text_of(
        client.get(english_url(article) + "changes/")
    )
    assert "Ninguna cifra de esta página ha cambiado desde que se publicó." in text_of(
        client.get(spanish_url(article) + "cambios/")
    )


def test_the_updated_line_links_to_the_change_log(client, article):
    html = client.get(english_url(article)).text
    assert re.search(rf'<a class="change-log-link" href="{english_url(article)}changes/"[^>]*><time', html)
    spanish = client.get(spanish_url(article)).text
    assert f'href="{spanish_url(article)}cambios/"' in spanish


def test_without_the_meta_line_the_change_log_still_has_a_visible_link(client, article):
    article.show_meta_line = False
    article.save_revision().publish()
    empty_own_cache()

    for url, log, words, absent in (
        (english_url(article), "changes/", "Every change of a figure on this page", "Updated"),
        (spanish_url(article), "cambios/", "Todos los cambios de las cifras de esta página", "Actualizado"),
    ):
        html = client.get(url).text
        links = re.findall(rf'<a class="change-log-link" href="{re.escape(url + log)}">([^<]+)</a>', html)
        assert links == [words], f"{url}: one link to the change log, its words visible"
        assert absent not in text_of(client.get(url)), "the meta line itself stays off"


def test_the_log_shows_newest_first_and_only_this_pages_changes(client, glm, article):
    other = make_article([table(glm)], title="Other page")
    new = publish_new_snapshot(glm, {("fast", "output_speed_median"): "301.2"})
    correction = publish_correction(new, {(glm["fast"].pk, "output_speed_median"): Decimal("320.0")})

    text = text_of(client.get(english_url(article) + "changes/"))
    assert text.index("301.2 320.0") < text.index("283.4 301.2")
    assert text.index(f"snapshot #{correction.pk}") < text.index(f"snapshot #{new.pk}")
    mine = FigureChange.objects.filter(page_id=article.pk, language="en").count()
    theirs = FigureChange.objects.filter(page_id=other.pk, language="en").count()
    assert mine == theirs and text.count("Baseten (Fast) · Output speed") == mine, (
        "both pages show the figure; each log lists its own rows"
    )


def add_changes(page, snapshot, count, language="en"):
    change_set = ChangeSet.objects.get(snapshot=snapshot)
    FigureChange.objects.bulk_create(
        FigureChange(
            change_set=change_set, page_id=page.pk, language=language, block_index=n, place=f"Place {n}",
            figure=f"Figure {n}", old_text=f"{n}.0", new_text=f"{n}.5",
        )
        for n in range(count)
    )


def test_the_log_is_paginated_fifty_to_a_page(client, glm, article):
    new = publish_new_snapshot(glm)
    add_changes(article, new, 60)

    first = client.get(english_url(article) + "changes/")
    assert text_of(first).count(" → ") == 0  # values sit in their own columns
    assert len(re.findall(r"<td>Place \d+</td>", first.text)) == 50
    assert "Page 1 of 2" in text_of(first) and 'href="?page=2"' in first.text
    second = client.get(english_url(article) + "changes/?page=2")
    assert len(re.findall(r"<td>Place \d+</td>", second.text)) == 10
    assert "Place 59" in second.text and "Place 59" not in first.text
    assert 'href="?page=1"' in second.text
    # An undeclared parameter is dropped: the page cache answers it with the first page's copy.
    assert "Place 59" not in client.get(english_url(article) + "changes/?utm_source=x").text


def test_the_log_costs_the_same_queries_with_3_or_50_changes(
    client, glm, glm_articles, django_assert_max_num_queries, settings
):
    """Both requests start from the same empty cache, which no other process can touch.

    Why it was flaky: what a request finds in the cache it does not query (Wagtail's site root paths,
    one key per language, written by the test's own URL lookup and read again by the view). Every test
    run on the machine shares one Redis database, and cache.clear() there is FLUSHDB: another run's
    clear between the lookup and the view (or the cache's circuit breaker opening after one slow reply
    on a loaded machine) made that request query again, 11 instead of 10. When it hit the second
    request, the test failed. A memory cache of this test's own makes the count the view's alone."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    small, large = glm_articles
    new = publish_new_snapshot(glm)
    add_changes(small, new, 3)
    add_changes(large, new, 50)
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "log-cost"}}
    # Built before counting: resolving a test's URL is not part of the page's cost.
    small_url, large_url = english_url(small) + "changes/", english_url(large) + "changes/"
    cache.clear()  # the test's own memory cache, no one else's
    with CaptureQueriesContext(connection) as small_queries:
        assert client.get(small_url).status_code == 200
    cache.clear()
    with django_assert_max_num_queries(len(small_queries.captured_queries)):
        response = client.get(large_url)
    assert len(re.findall(r"<td>Place \d+</td>", response.text)) == 50


@pytest.fixture
def glm_articles(glm):
    return make_article([table(glm)], title="Small"), make_article([table(glm)], title="Large")


def parsed(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = feedparser.parse(response.content)
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert feed.version == "atom10"
    return feed


def test_the_article_feed_lists_each_publication_in_the_address_language(client, glm, article):
    correction = corrected(glm)

    feed = parsed(client.get(english_url(article) + "changes/feed/"))
    assert feed.feed.title == "Figure changes: GLM page"
    assert feed.feed.language == "en"
    # Atom requires an author of every entry, here the feed's own (RFC 4287 §4.1.1).
    assert feed.feed.author == "LLM API Benchmarks"
    [entry] = feed.entries
    assert entry.title == "Correction: figures changed on “GLM page”"
    assert entry.link == f"http://testserver{english_url(article)}changes/#change-{correction.review_change_set.pk}"
    assert entry.updated_parsed[:6] == correction.published_at.utctimetuple()[:6]
    assert "Novita AI · First chunk" in entry.summary and "2.51 → 2.01" in entry.summary
    assert NOTE in entry.summary

    spanish = parsed(client.get(spanish_url(article) + "cambios/feed/"))
    assert spanish.feed.language == "es"
    assert spanish.feed.title == "Cambios de cifras: GLM page (ES)"
    [entry] = spanish.entries
    assert entry.title == "Corrección: cifras cambiadas en «GLM page (ES)»"
    assert entry.link.endswith(f"{spanish_url(article)}cambios/#change-{correction.review_change_set.pk}")
    assert "Nota de corrección" in entry.summary


def test_the_site_feed_lists_every_live_page_and_is_advertised_in_every_head(client, glm, article):
    other = make_article([table(glm)], title="Other page")
    empty = parsed(client.get("/en/changes/feed/"))
    assert empty.entries == []
    new = publish_new_snapshot(glm, {("fast", "output_speed_median"): "301.2"})
    other.unpublish()

    feed = parsed(client.get("/en/changes/feed/"))
    assert feed.feed.language == "en"
    assert [entry.title for entry in feed.entries] == ["Figures changed on “GLM page”"], "no unpublished page"
    assert "283.4 → 301.2" in feed.entries[0].summary
    assert feed.entries[0].updated_parsed[:6] == new.published_at.utctimetuple()[:6]
    spanish = parsed(client.get("/es/cambios/feed/"))
    assert spanish.feed.language == "es"
    assert [entry.title for entry in spanish.entries] == ["Cifras cambiadas en «GLM page (ES)»"]

    head = client.get(english_url(article)).text.split("</head>")[0]
    assert '<link rel="alternate" type="application/atom+xml" title="Figure changes on LLM API Benchmarks" ' \
        'href="/en/changes/feed/">' in head
    assert f'type="application/atom+xml" title="Figure changes: GLM page" href="{english_url(article)}changes/feed/">' in head
    spanish_head = client.get(spanish_url(article)).text.split("</head>")[0]
    assert 'href="/es/cambios/feed/"' in spanish_head
    assert f'href="{spanish_url(article)}cambios/feed/"' in spanish_head
    home = client.get("/en/").text.split("</head>")[0]
    assert 'type="application/atom+xml"' in home and 'href="/en/changes/feed/"' in home


def test_an_english_only_article_has_no_spanish_change_log_or_feed(client, glm):
    english_only = make_article([table(glm)], title="English only", spanish=False)
    corrected(glm)
    assert client.get(english_url(english_only) + "changes/").status_code == 200
    spanish = english_url(english_only).replace("/en/", "/es/")
    assert client.get(spanish + "cambios/").status_code == 404
    assert client.get(spanish + "cambios/feed/").status_code == 404
    assert parsed(client.get("/es/cambios/feed/")).entries == []


def test_the_pages_read_the_change_log_through_the_reader_the_review_layer_registers(monkeypatch, article):
    """The page layer does not import reviews (tests/test_layers.py): reviews.apps registers its reader,
    and without one the log fails loudly instead of quietly showing no changes."""
    from django.core.exceptions import ImproperlyConfigured

    from articles import change_log
    from reviews import change_log as recorded

    assert change_log._registered() is recorded
    monkeypatch.setattr(change_log, "_reader", None)
    with pytest.raises(ImproperlyConfigured, match="reviews"):
        change_log.page_changes(article)
