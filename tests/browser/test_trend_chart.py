"""A trend chart draws in the browser: an SVG image with one visible line per endpoint, and its data
table under it (closed, opened by a click) for a reader who cannot see the picture."""

import datetime

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def trend_article():
    """An article with a trend chart over three days of a model measured only here (the demo's names differ):
    a corrected value on the second day, a shorter workload on the third (a change of method on each line)."""
    from django.utils import timezone

    from tests.factories import (
        EndpointFactory,
        LanguageModelFactory,
        ProviderFactory,
        SnapshotFactory,
        SourceFactory,
    )
    from tests.figures_support import make_article
    from tests.test_trend_chart import publish_correction  # as the admin corrects: the method copied

    model = LanguageModelFactory(name="Trendline 1", slug="trendline-1")
    source = SourceFactory(publisher="Trend probe", title="Trendline 1 providers", url="https://example.com/trend")
    endpoints = [EndpointFactory(provider=ProviderFactory(name=name, slug=name.lower().replace(" ", "-")), model=model)
                 for name in ("Trend Host A", "Trend Host B")]
    now = timezone.now()
    snapshots = [
        SnapshotFactory(source=source, measured_at=now - datetime.timedelta(days=days, hours=1), published=True,
                        values=[(endpoints[0], "output_speed_median", a), (endpoints[1], "output_speed_median", b)],
                        workload=workload)
        for days, a, b, workload in ((2, "120.0", "80.0", "10,000-token input"), (1, "125.0", "82.0", "10,000-token input"),
                                     (0, "131.0", "79.0", "1,000-token input"))
    ]
    publish_correction(snapshots[1], {(endpoints[1].pk, "output_speed_median"): "85.0"}, note="Re-measured")
    value = {"model": model.pk, "source": source.pk, "metric": "output_speed_median", "days": 7,
             "name_style": "short", "note": "", "caption_en": ""}
    return make_article([{"type": "trend_chart", "value": value}], sources=[source], title="Trendline speeds")


def test_the_trend_chart_draws_its_lines_and_keeps_a_data_table(page, screenshot):
    article = trend_article()
    assert page.goto(article.url).ok
    chart = page.locator("figure.trend-chart svg.chart-svg")
    expect(chart).to_be_visible()
    assert chart.get_attribute("aria-labelledby").endswith("-desc")
    # An image without JavaScript; a group of focusable points with it (tests/browser/test_trend_interactions.py).
    expect(chart).to_have_attribute("role", "group")
    lines = chart.locator("polyline.trend-line")
    expect(lines).to_have_count(2)
    for line in lines.all():
        box = line.bounding_box()
        assert box["width"] > 100, f"a line spanning two days of seven is drawn {box}"
        assert line.evaluate("el => el.points.numberOfItems") == 3
    expect(chart.locator(".trend-corrected")).to_have_count(1)
    expect(chart.locator("polygon.trend-change")).to_have_count(2)  # the workload changed on the last day
    expect(chart.locator("text.trend-label")).to_have_text(["Trend Host A", "Trend Host B"])

    table = page.locator("figure.trend-chart details.chart-data table")
    expect(table).to_be_hidden()
    page.locator("figure.trend-chart details.chart-data summary").click()
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(6)
    expect(table.locator("tbody tr.corrected")).to_contain_text("85.0")
    screenshot(page, "trend-chart")
    assert page.console_errors == []
