"""The price vs speed chart draws in the browser: its points, the frontier's step line with the frontier
endpoints named, and the data table under it."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def scatter_article():
    from tests.factories import (
        EndpointFactory,
        LanguageModelFactory,
        PriceFactory,
        ProviderFactory,
        SnapshotFactory,
        SourceFactory,
    )
    from tests.figures_support import make_article

    model = LanguageModelFactory(name="Scatterline 1", slug="scatterline-1")
    source = SourceFactory(publisher="Scatter probe", title="Scatterline providers", url="https://example.com/s")
    pricing = SourceFactory(publisher="Scatter prices", title="lists", kind="price_list", url="https://example.com/p")
    values = []
    for name, price, speed in (("Cheap Host", "0.40", "90.0"), ("Quick Host", "2.00", "250.0"),
                               ("Middle Host", "2.50", "120.0")):
        endpoint = EndpointFactory(provider=ProviderFactory(name=name, slug=name.lower().replace(" ", "-")), model=model)
        values.append((endpoint, "output_speed_median", speed))
        PriceFactory(endpoint=endpoint, output_per_m=Decimal(price), source=pricing)
    SnapshotFactory(source=source, values=values, published=True)
    value = {"model": model.pk, "source": source.pk, "x_axis": "price_output", "y_metric": "output_speed_median",
             "name_style": "short", "note": "", "caption_en": ""}
    return make_article([{"type": "price_speed_scatter", "value": value}], sources=[source, pricing])


def test_the_scatter_draws_its_points_and_frontier_and_keeps_a_data_table(page, screenshot):
    article = scatter_article()
    assert page.goto(article.url).ok
    chart = page.locator("figure.scatter-chart svg[role=img]")
    expect(chart).to_be_visible()
    expect(chart.locator("g.scatter-point circle")).to_have_count(3)
    expect(chart.locator("text.scatter-label")).to_have_text(["Cheap Host", "Quick Host"])
    frontier = chart.locator("polyline.scatter-frontier").bounding_box()
    assert frontier["width"] > 100 and frontier["height"] > 50, frontier
    # Quicker is higher on the page: the faster frontier endpoint is drawn above the cheaper one.
    cheap, quick = (chart.locator("g.on-frontier circle").nth(n).bounding_box() for n in (0, 1))
    assert quick["y"] < cheap["y"] and quick["x"] > cheap["x"]
    page.locator("figure.scatter-chart details.chart-data summary").click()
    expect(page.locator("figure.scatter-chart table tbody tr")).to_have_count(3)
    screenshot(page, "price-speed-scatter")
    assert page.console_errors == []
