"""The data page and the figure files: a Spanish address (/es/<slug>/datos/), hreflang alternates to the
other language's data page, noindex (the page repeats the article), and the same page cache and CDN
purge as the article, so a file never outlives the data it was made from."""

import csv
import io
import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.figures_support import glm_data, make_article, publish_correction, table
from tests.test_page_cache import fake_cdn  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

EN, ES = "/en/fastest-llm-api/", "/es/api-llm-mas-rapida/"
LINK = re.compile(r'<p class="download-link"><a href="([^"]+)"')


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def head(response):
    assert response.status_code == 200
    return response.text.split("</head>")[0]


def alternates(html):
    return dict(re.findall(r'<link rel="alternate" hreflang="([\w-]+)" href="([^"]+)">', html))


def test_the_spanish_data_page_has_its_own_address_labels_and_alternates(client, demo_site):
    response = client.get(ES + "datos/")
    top = head(response)
    assert '<html lang="es">' in response.text
    assert "Descargar todas las cifras:" in response.text and "Todas las cifras del artículo" in response.text
    assert alternates(top) == {
        "en": "http://testserver/en/fastest-llm-api/data/",
        "x-default": "http://testserver/en/fastest-llm-api/data/",
        "es": "http://testserver/es/api-llm-mas-rapida/datos/",
    }
    assert '<link rel="canonical" href="http://testserver/es/api-llm-mas-rapida/datos/">' in top
    assert '<meta name="robots" content="noindex,follow">' in top
    # The language switcher leads to the English data page, not to the article.
    assert 'href="/en/fastest-llm-api/data/" hreflang="en"' in response.text
    assert f'href="{ES}datos/csv/"' in response.text and f'href="{ES}datos/json/"' in response.text
    # The Spanish article links to it under its Spanish address.
    assert f'href="{ES}datos/"' in client.get(ES).text


def test_the_english_data_page_is_noindexed_with_alternates(client, demo_site):
    top = head(client.get(EN + "data/"))
    assert '<meta name="robots" content="noindex,follow">' in top
    assert alternates(top)["es"] == "http://testserver/es/api-llm-mas-rapida/datos/"
    assert '<link rel="canonical" href="http://testserver/en/fastest-llm-api/data/">' in top
    # The article itself stays indexable and keeps its own alternates.
    article = head(client.get(EN))
    assert "noindex" not in article and alternates(article)["es"] == "http://testserver/es/api-llm-mas-rapida/"


@pytest.mark.parametrize(
    "old, new",
    [
        (ES + "data/", ES + "datos/"),
        (ES + "data/csv/", ES + "datos/csv/"),
        (ES + "data/json/", ES + "datos/json/"),
        (EN + "datos/", EN + "data/"),
    ],
)
def test_the_other_languages_segment_redirects_permanently(client, demo_site, old, new):
    response = client.get(old)
    assert response.status_code == 301 and response["Location"] == new


def test_an_english_only_article_advertises_no_spanish_data_page(client, db):
    data = glm_data()
    page = make_article([table(data)], sources=[data["source"]], spanish=False)
    top = head(client.get(page.url + "data/"))
    assert set(alternates(top)) == {"en", "x-default"}
    spanish = page.url.replace("/en/", "/es/")  # no Spanish slug: the English one under /es/
    for path in ("", "datos/", "datos/csv/", "datos/json/", "data/"):
        assert client.get(spanish + path).status_code == 404, path


def difference_cell(response):
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    [row] = [r for r in rows if r["figure"] == "Fireworks AI · Δ vs fastest" and r["metric"] == "End-to-end p99"]
    return row["value"], row["as printed"]


def test_files_are_cached_and_made_again_when_the_data_changes(client, demo_site):
    from benchmarks.cache import bump_data_generation
    from benchmarks.models import Measurement

    article = "/en/glm-5-3-flash-providers/"
    urls = [link for link in LINK.findall(client.get(article).text)] + [article + "data/csv/"]
    block = next(url for url in urls if "'+7,259 ms" in client.get(url).content.decode())
    first = client.get(block)
    assert first["X-Page-Cache"] == "hit"  # read once above
    with CaptureQueriesContext(connection) as ctx:
        again = client.get(block)
    assert len(ctx.captured_queries) == 0 and again.content == first.content
    assert again["Content-Disposition"] == first["Content-Disposition"] and "attachment" in again["Content-Disposition"]
    assert again["Content-Type"] == "text/csv; charset=utf-8" and again["X-Robots-Tag"] == "noindex"
    assert difference_cell(again) == ("7259", "'+7,259 ms")
    json_before = client.get(article + "data/json/").content

    row = Measurement.objects.get(snapshot__status="published", metric="e2e_p99", endpoint__provider__slug="fireworks")
    publish_correction(row.snapshot, {(row.endpoint_id, row.metric): row.value + Decimal("0.1")}, bump=False)
    assert difference_cell(client.get(block)) == ("7259", "'+7,259 ms")  # same generation: the cached file
    bump_data_generation()
    fresh = client.get(block)
    assert fresh["X-Page-Cache"] == "miss" and difference_cell(fresh) == ("7359", "'+7,359 ms")
    assert client.get(article + "data/json/").content != json_before


def test_the_cdn_purge_reaches_the_data_pages_and_every_file_in_both_languages(
    client, demo_site, fake_cdn, django_capture_on_commit_callbacks  # noqa: F811
):
    from articles.models import ArticlePage
    from benchmarks.cache import bump_data_generation

    expected = []
    for article in (EN, ES):
        segment = "data" if article == EN else "datos"
        links = LINK.findall(client.get(article).text)
        assert links
        expected += [article, f"{article}{segment}/", f"{article}{segment}/csv/", f"{article}{segment}/json/", *links]
    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    with django_capture_on_commit_callbacks(execute=True):
        page.save_revision().publish()
    for path in expected:
        assert any(url.endswith(path) for url in fake_cdn), (path, fake_cdn)
    assert not any(url.endswith(ES + "data/") for url in fake_cdn)  # the redirect is not a cached page

    fake_cdn.clear()
    bump_data_generation()
    for path in expected:
        assert any(url.endswith(path) for url in fake_cdn), path


def test_the_spanish_data_page_and_files_show_no_english_interface_text(client, demo_site):
    from tests.po_catalog import read_po
    from tests.test_i18n_catalog import (
        PO,
        english_interface_strings,
        english_leaks,
        fallen_back_data,
        perceived_text,
        without,
    )

    strings = english_interface_strings(read_po(PO))
    data = fallen_back_data()
    page = client.get(ES + "datos/").text
    assert english_leaks(without(perceived_text(page, "es"), data), strings) == []
    header = client.get(ES + "datos/csv/").content.decode().splitlines()[0]
    assert english_leaks(header, strings) == []
    # The same check finds the English headers on the English file, or it could never fail.
    assert english_leaks(client.get(EN + "data/csv/").content.decode().splitlines()[0], strings)
