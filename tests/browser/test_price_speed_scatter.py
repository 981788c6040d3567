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
    # With the script the chart is a group of focusable points (role=img without it, below).
    chart = page.locator("figure.scatter-chart svg.chart-svg")
    expect(chart).to_be_visible()
    expect(chart).to_have_attribute("role", "group")
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


# --- in English and Spanish, with JavaScript off, and the file of its points ---------------------------

WORDS = {"en": ("Data table", "On the frontier"), "es": ("Tabla de datos", "En la frontera")}


def address(article, language):
    return article.url if language == "en" else f"/es/{article.slug_es}/"


@pytest.fixture
def no_script_page(browser, site):
    from .viewports import DESKTOP

    context = browser.new_context(base_url=site.url, viewport=DESKTOP, java_script_enabled=False, locale="en-US")
    context.set_default_timeout(5_000)
    yield context.new_page()
    context.close()


def assert_csv_is_the_plotted_points(page, figure):
    """The block's CSV holds one row per point drawn: the table's providers and both values."""
    import csv
    import io

    href = figure.locator("xpath=following-sibling::p[@class='download-link'][1]/a").get_attribute("href")
    response = page.request.get(href)
    assert response.ok and response.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.text())))[1:]
    assert len(rows) == figure.locator("svg g.scatter-point circle").count() == 3
    table = [(row.locator("th").text_content().strip(), *(Decimal(cell.get_attribute("value"))
                                                          for cell in row.locator("data").all()))
             for row in figure.locator("table.scatter-table tbody tr").all()]
    assert [(row[0].split(" · ")[0], Decimal(row[1]), Decimal(row[2])) for row in rows] == table
    frontier = {row[0].split(" · ")[0] for row in rows if row[3]}
    assert frontier == {"Cheap Host", "Quick Host"}
    assert set(figure.locator("svg text.scatter-label").all_text_contents()) == frontier


@pytest.mark.parametrize("language", ["en", "es"])
def test_without_javascript_the_scatter_and_its_table_are_there(no_script_page, language):
    page = no_script_page
    article = scatter_article()
    assert page.goto(address(article, language)).ok
    figure = page.locator("figure.scatter-chart")
    chart = figure.locator("svg[role=img]")
    expect(chart).to_be_visible()
    expect(chart.locator("g.scatter-point circle")).to_have_count(3)
    assert chart.locator("polyline.scatter-frontier").bounding_box()["width"] > 100
    expect(chart.locator("[tabindex]")).to_have_count(0)
    summary = figure.locator("details.chart-data summary")
    expect(summary).to_have_text(WORDS[language][0])
    summary.click()
    expect(figure.locator("table.scatter-table")).to_be_visible()
    expect(figure.locator("table.scatter-table thead")).to_contain_text(WORDS[language][1])
    assert_csv_is_the_plotted_points(page, figure)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_scatter_points_get_the_tooltip_on_hover_and_focus(page, language):
    """static/articles/js/trend_chart.js enhances every server-drawn chart on a page that loads it (here
    through the trend chart under the scatter): the scatter's points get the same tooltip and tab stop."""
    from tests.figures_support import make_article

    article = scatter_article()
    scatter = article.body.raw_data[0]["value"]
    trend = {"model": scatter["model"], "source": scatter["source"], "metric": "output_speed_median", "days": 7,
             "name_style": "short", "note": "", "caption_en": ""}
    both = make_article([article.body.raw_data[0], {"type": "trend_chart", "value": trend}],
                        sources=[item.source for item in article.page_sources.all()], title="Scatter and trend")
    assert page.goto(address(both, language)).ok
    figure = page.locator("figure.scatter-chart")
    tip = figure.locator(".chart-point-tip")
    cheap = figure.locator("g.scatter-point circle").first
    cheap.hover()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("Cheap Host")
    expect(tip).to_contain_text("90.0")
    assert_csv_is_the_plotted_points(page, figure)
    figure.locator("figcaption a").last.focus()
    page.keyboard.press("Tab")
    expect(cheap).to_be_focused()
    expect(tip).to_contain_text("Cheap Host")
    page.keyboard.press("ArrowRight")
    expect(figure.locator("g.scatter-point circle").nth(1)).to_be_focused()
    expect(tip).not_to_contain_text("Cheap Host")
    assert page.console_errors == []
