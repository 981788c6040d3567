"""The article's og:image (articles/og_image.py): a 1200×630 PNG of its lead chart, linked from the head,
drawn from the figures the page prints, stored with the pre-rendered copy and served from it."""

import io
import re
from decimal import Decimal

import pytest
from bs4 import BeautifulSoup
from django.db import connection
from django.test.utils import CaptureQueriesContext
from PIL import Image, ImageColor

from articles import og_image
from articles.prerender import HEADER, PrerenderedArticle
from articles.tasks import prerender_due
from tests.figures_support import GLM_VALUES, glm_data, make_article, paragraph, publish_correction, table
from tests.test_prerender_data_routes import reads_data

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("without_page_cache")]


def bar_chart(data, **extra):
    value = {"model": data["model"].pk, "source": data["source"].pk, "metric": "output_speed_median",
             "name_style": "short", "note": "", "caption_en": ""}
    return {"type": "bar_chart", "value": {**value, **extra}}


def head(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return BeautifulSoup(response.content, "html.parser")


def meta(soup, name):
    tag = soup.select_one(f'meta[property="{name}"]') or soup.select_one(f'meta[name="{name}"]')
    return tag["content"] if tag else None


def png(client, url):
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/png", url
    image = Image.open(io.BytesIO(response.content))
    assert image.format == "PNG" and image.size == (1200, 630)
    return response, image.convert("RGB")


def bar_lengths(image, colour=og_image.BAR):
    """The length in pixels of each bar, top to bottom: runs of rows holding the bar colour."""
    rgb = ImageColor.getrgb(colour)
    lengths, current = [], 0
    for y in range(og_image.ROWS_TOP, og_image.ROWS_BOTTOM):
        count = sum(1 for x in range(og_image.BAR_X, og_image.WIDTH) if image.getpixel((x, y)) == rgb)
        if count and not current:
            lengths.append(count)
        current = count
    return lengths


def speeds(changes=None):
    values = {key: Decimal(speed) for key, (speed, _ttfc, _accuracy) in GLM_VALUES.items()}
    values.update(changes or {})
    return sorted(values.values(), reverse=True)


def assert_proportional(lengths, values):
    assert len(lengths) == len(values)
    for length, value in zip(lengths, values, strict=True):
        expected = og_image.BAR_MAX * float(value / values[0])
        assert abs(length - expected) <= 0.02 * expected, (lengths, values)


def test_the_head_links_a_1200x630_png_of_the_lead_chart(client):
    data = glm_data()
    page = make_article([paragraph("<p>Intro</p>"), table(data), bar_chart(data)])
    soup = head(client, page.url)
    url = meta(soup, "og:image")
    # Absolute from the Site's root URL (the head is cached and pre-rendered without a request).
    # At the reader's origin (the test client's), articles/addresses.py.
    assert re.fullmatch(re.escape("http://testserver" + page.url + "og.png") + r"\?v=[0-9a-f]{12}", url)
    assert (meta(soup, "og:image:width"), meta(soup, "og:image:height")) == ("1200", "630")
    assert "GLM-5.3" in meta(soup, "og:image:alt")  # the chart's caption
    assert meta(soup, "twitter:card") == "summary_large_image"
    assert meta(soup, "twitter:image") == url
    assert len(soup.select('meta[property="og:image"]')) == 1
    png(client, page.url + "og.png")
    png(client, url.removeprefix("http://testserver"))  # the versioned address serves it


def test_the_image_address_changes_with_the_figures_it_shows(client):
    data = glm_data()
    page = make_article([bar_chart(data)])
    before = meta(head(client, page.url), "og:image")
    assert meta(head(client, page.url), "og:image") == before  # the same figures: the same address
    publish_correction(data["snapshot"], {(data["fast"].pk, "output_speed_median"): Decimal("200.0")})
    after = meta(head(client, page.url), "og:image")
    assert after != before and after.split("?")[0] == before.split("?")[0]


def test_the_bars_are_the_page_figures_and_follow_a_correction(client):
    data = glm_data()
    page = make_article([bar_chart(data), table(data)])  # the bar chart leads, not the table before it
    first, image = png(client, page.url + "og.png")
    lengths = bar_lengths(image)
    assert lengths[0] == max(lengths) == og_image.BAR_MAX  # the leader's bar is the longest
    assert_proportional(lengths, speeds())
    publish_correction(data["snapshot"], {(data["fast"].pk, "output_speed_median"): Decimal("200.0")})
    second, image = png(client, page.url + "og.png")
    assert second.content != first.content
    assert_proportional(bar_lengths(image), speeds({"fast": Decimal("200.0")}))


def test_a_table_alone_draws_its_sort_metric(client):
    data = glm_data()
    page = make_article([table(data, sort_metric="output_speed_median")])
    assert meta(head(client, page.url), "og:image") is not None
    _response, image = png(client, page.url + "og.png")
    assert_proportional(bar_lengths(image), speeds())


def test_the_spanish_page_links_and_serves_its_own_image(client):
    data = glm_data()
    page = make_article([bar_chart(data)])
    english = client.get(page.url + "og.png").content
    spanish_url = f"/es/{page.slug_es}/"
    assert meta(head(client, spanish_url), "og:image").split("?v=")[0].endswith(spanish_url + "og.png")
    response, image = png(client, spanish_url + "og.png")
    assert response.content != english  # "283,4" and Spanish words, the same bars
    assert bar_lengths(image) == bar_lengths(Image.open(io.BytesIO(english)).convert("RGB"))


def test_a_page_without_chart_has_no_og_image(client):
    glm_data()
    page = make_article([paragraph("<p>Only words.</p>")])
    soup = head(client, page.url)
    assert meta(soup, "og:image") is None and meta(soup, "og:image:alt") is None
    assert meta(soup, "twitter:card") == "summary"
    assert client.get(page.url + "og.png").status_code == 404


def test_a_stored_image_is_served_without_rendering(client, settings):
    settings.ARTICLE_PRERENDER = True
    data = glm_data()
    page = make_article([bar_chart(data)])
    prerender_due()
    stored = bytes(PrerenderedArticle.objects.get(page=page, language="en").og_image)
    assert Image.open(io.BytesIO(stored)).size == (1200, 630)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(page.url + "og.png")
    assert response[HEADER] == "stored" and response.content == stored
    assert not any(reads_data(query) for query in queries.captured_queries)
    assert len(queries.captured_queries) <= 8, [query["sql"] for query in queries.captured_queries]
    settings.ARTICLE_PRERENDER = False
    live = client.get(page.url + "og.png")
    assert live[HEADER] == "live" and live.content == stored  # the same image a live render draws


def test_an_archived_version_links_no_image_of_todays_figures(client):
    from tests.versions_support import ago, as_of, versioned_article

    article = versioned_article(glm_data())  # a provider table: the current page has an image
    assert meta(head(client, article.url), "og:image") is not None
    soup = head(client, as_of(article, ago(minutes=30)))
    assert meta(soup, "og:image") is None and meta(soup, "twitter:card") == "summary"
