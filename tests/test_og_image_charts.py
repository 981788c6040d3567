"""The og:image of an article whose lead chart (the body's first chart of any kind) is a trend chart or
a price-vs-speed scatter draws that chart: the same lines and points the page's SVG plots, read here
from the page itself and found at their places in the PNG (pixel colours), in English and Spanish;
the demo scorecard, whose only chart is a trend chart, shares that trend chart."""

import datetime
import re
from decimal import Decimal

import pytest
from django.utils import timezone

from articles.charts import og_plot, svg
from tests.factories import PriceFactory, SnapshotFactory
from tests.figures_support import glm_data, glm_values, make_article, table
from tests.test_og_image import bar_chart, bar_lengths, head, meta, png

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("without_page_cache")]

SERIES = re.compile(r'<g class="trend-series".*?</g>', re.S)
LINE = re.compile(r'<polyline class="trend-line" points="([^"]+)" fill="none" stroke="(#[0-9a-f]{6})"')


def trend(data, **extra):
    value = {"model": data["model"].pk, "source": data["source"].pk, "metric": "output_speed_median", "days": 30,
             "name_style": "short", "note": "", "caption_en": ""}
    return {"type": "trend_chart", "value": {**value, **extra}}


def scatter(data):
    value = {"model": data["model"].pk, "source": data["source"].pk, "x_axis": "price_output",
             "y_metric": "output_speed_median", "name_style": "short", "note": "", "caption_en": ""}
    return {"type": "price_speed_scatter", "value": value}


def history(data):
    """Two earlier snapshots of the source: each endpoint's line has three points."""
    now = timezone.now()
    for days, speed in ((2, "120.0"), (1, "135.0")):
        SnapshotFactory(source=data["source"], measured_at=now - datetime.timedelta(days=days, hours=1),
                        values=glm_values(data, {("fast", "output_speed_median"): speed}), published=True)


def rgb(colour):
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def near(image, x, y, colour, radius=2):
    """Whether a pixel within `radius` of (x, y) has exactly `colour`."""
    wanted = rgb(colour)
    return any(image.getpixel((round(x) + dx, round(y) + dy)) == wanted
               for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1))


def page_lines(html):
    """[(colour, [(x, y) in the SVG])] of the page's trend lines, as its SVG draws them."""
    lines = []
    for group in SERIES.findall(html):
        points, colour = LINE.search(group).groups()
        lines.append((colour, [tuple(float(n) for n in pair.split(",")) for pair in points.split()]))
    return lines


def assert_draws_the_page_lines(image, html):
    at = og_plot.mapper(svg.plot_box())
    lines = page_lines(html)
    assert lines
    for colour, points in lines:
        for x, y in points:  # each point's marker, in its line's colour
            assert near(image, *at(x, y), colour), (colour, x, y)
        for (x1, y1), (x2, y2) in zip(points, points[1:], strict=False):  # and the line between two points
            assert near(image, *at((x1 + x2) / 2, (y1 + y2) / 2), colour), (colour, x1, x2)
    return lines


def test_a_trend_chart_leading_the_body_is_the_image_with_the_page_lines(client):
    data = glm_data()
    history(data)
    page = make_article([table(data), trend(data)])  # a table draws only without a chart
    html = client.get(page.url).text
    soup = head(client, page.url)
    assert meta(soup, "og:image:alt") == "Output speed over time · GLM-5.3 (tokens/s)"
    response, image = png(client, page.url + "og.png")
    lines = assert_draws_the_page_lines(image, html)
    assert [len(points) for _colour, points in lines] == [3, 3, 3, 3]
    assert bar_lengths(image) == []  # no bar was drawn

    bars = make_article([table(data)])
    bars_response, bars_image = png(client, bars.url + "og.png")
    assert len(bar_lengths(bars_image)) == 4 and bars_response.content != response.content

    spanish_url = f"/es/{page.slug_es}/"
    spanish, spanish_image = png(client, spanish_url + "og.png")
    assert spanish.content != response.content  # Spanish words and dates
    assert_draws_the_page_lines(spanish_image, client.get(spanish_url).text)


def test_the_trend_image_follows_new_data(client):
    data = glm_data()
    history(data)
    page = make_article([trend(data)])
    before = meta(head(client, page.url), "og:image")
    first, _image = png(client, page.url + "og.png")
    SnapshotFactory(source=data["source"], measured_at=timezone.now() - datetime.timedelta(minutes=5),
                    values=glm_values(data, {("zai", "output_speed_median"): "210.0"}), published=True)
    from benchmarks.cache import bump_data_generation

    bump_data_generation()
    assert meta(head(client, page.url), "og:image") != before
    second, image = png(client, page.url + "og.png")
    assert second.content != first.content
    lines = assert_draws_the_page_lines(image, client.get(page.url).text)
    assert sorted(len(points) for _colour, points in lines) == [4, 4, 4, 4]


def test_the_first_chart_in_the_body_leads(client):
    data = glm_data()
    history(data)
    _response, image = png(client, make_article([bar_chart(data), trend(data)]).url + "og.png")
    assert len(bar_lengths(image)) == 4
    page = make_article([trend(data), bar_chart(data)])
    _response, image = png(client, page.url + "og.png")
    assert bar_lengths(image) == []
    assert_draws_the_page_lines(image, client.get(page.url).text)


def test_a_scatter_leading_the_body_draws_its_points_and_frontier(client):
    data = glm_data()
    # A third priced endpoint, dearer and slower than Baseten (Fast): off the frontier.
    PriceFactory(endpoint=data["together"], input_per_m=Decimal("3.00"), output_per_m=Decimal("7.00"),
                 source=data["pricing"])
    page = make_article([table(data), scatter(data)])
    html = client.get(page.url).text
    circles = re.findall(r'<g class="scatter-point( on-frontier)?">\s*<circle cx="([\d.]+)" cy="([\d.]+)"', html)
    assert sorted(bool(on) for on, _x, _y in circles) == [False, True, True]
    _response, image = png(client, page.url + "og.png")
    at = og_plot.mapper(svg.plot_box())
    for on, x, y in circles:
        px, py = at(float(x), float(y))
        if on:
            assert near(image, px, py, og_plot.FRONTIER, radius=1)
        else:  # a ring: white inside, grey around
            assert image.getpixel((round(px), round(py))) == (255, 255, 255)
            assert near(image, px - 7, py, og_plot.OFF_FRONTIER, radius=1)
    frontier = re.search(r'<polyline class="scatter-frontier" points="([^"]+)"', html).group(1)
    path = [at(*(float(n) for n in pair.split(","))) for pair in frontier.split()]
    samples = [((x1 + (x2 - x1) * t / 20), (y1 + (y2 - y1) * t / 20))
               for (x1, y1), (x2, y2) in zip(path, path[1:], strict=False) for t in range(1, 20)]
    dashed = sum(near(image, x, y, og_plot.FRONTIER, radius=1) for x, y in samples)
    assert dashed >= 0.5 * len(samples)  # a dashed line: most of its length is drawn
    assert bar_lengths(image) == []
    assert meta(head(client, page.url), "og:image:alt").startswith("Output speed (tokens/s) vs Price per 1M")


def test_the_demo_scorecard_shares_its_trend_chart(client, demo_site):
    for url in ("/en/glm-5-3-flash-providers/", "/es/proveedores-glm-5-3-flash/"):
        html = client.get(url).text
        caption = re.search(r'<svg class="chart-svg".*?<title id="[^"]+">([^<]+)</title>', html, re.S).group(1)
        assert meta(head(client, url), "og:image:alt") == caption.replace("&#x27;", "'")
        _response, image = png(client, url + "og.png")
        lines = assert_draws_the_page_lines(image, html)
        assert len(lines) >= 2 and all(len(points) >= 14 for _colour, points in lines)
        assert bar_lengths(image) == []


def test_the_stored_rendering_keeps_the_trend_image(client, settings):
    from articles.prerender import HEADER, PrerenderedArticle
    from articles.tasks import prerender_due

    settings.ARTICLE_PRERENDER = True
    data = glm_data()
    history(data)
    page = make_article([trend(data)])
    prerender_due()
    stored = bytes(PrerenderedArticle.objects.get(page=page, language="en").og_image)
    response = client.get(page.url + "og.png")
    assert response[HEADER] == "stored" and response.content == stored
    settings.ARTICLE_PRERENDER = False
    live, image = png(client, page.url + "og.png")
    assert live[HEADER] == "live" and live.content == stored
    assert_draws_the_page_lines(image, client.get(page.url).text)
