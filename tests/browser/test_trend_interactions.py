"""The trend chart in Chromium, in English and in Spanish: drawn and readable with JavaScript off (the
picture, and the table as the accessible path; no focusable point, no button that would do nothing),
its CSV holding exactly the plotted points, and, with JavaScript, a tooltip on hover and on keyboard
focus (arrow keys from point to point), buttons that hide and show each line, and no axe violation."""

import csv
import io
from decimal import Decimal

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from .test_accessibility import TAGS, violations_report
from .test_trend_chart import trend_article
from .viewports import DESKTOP, PHONE

pytestmark = pytest.mark.browser

AXE = Axe()
WORDS = {
    "en": {"corrected": "Corrected: Re-measured", "table": "Data table", "hint": "Show or hide a line",
           "changed": "Method changed: workload 10,000-token input → 1,000-token input"},
    "es": {"corrected": "Corregido: Re-measured", "table": "Tabla de datos", "hint": "Muestra u oculta una línea",
           "changed": "Cambio de método: carga de trabajo 10,000-token input → 1,000-token input"},
}


def address(article, language):
    return article.url if language == "en" else f"/es/{article.slug_es}/"


@pytest.fixture
def no_script_page(browser, site):
    """A page in a browser context with JavaScript off."""
    context = browser.new_context(base_url=site.url, viewport=DESKTOP, java_script_enabled=False, locale="en-US")
    context.set_default_timeout(5_000)
    yield context.new_page()
    context.close()


def csv_points(page, figure):
    href = figure.locator("xpath=following-sibling::p[@class='download-link'][1]/a").get_attribute("href")
    response = page.request.get(href)
    assert response.ok and response.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.text())))
    return rows[0], rows[1:]


def table_points(figure):
    """(provider, full-precision value) per row of the data table, in its order."""
    rows = figure.locator("table.trend-table tbody tr")
    return [(row.locator("th").text_content().strip(), Decimal(row.locator("data").get_attribute("value")))
            for row in rows.all()]


def assert_csv_is_the_plotted_points(page, figure):
    header, rows = csv_points(page, figure)
    svg_points = figure.locator("svg .trend-point")
    assert len(rows) == svg_points.count() == 6
    # Each row is one point: the same providers and values, in the table's order (oldest first).
    names = [row[1].split(" · ")[0] for row in rows]
    values = [Decimal(row[5]) for row in rows]
    assert list(zip(names, values, strict=True)) == table_points(figure)
    per_line = {name: names.count(name) for name in set(names)}
    for line in figure.locator("g.trend-series").all():
        assert line.locator(".trend-point").count() == per_line[line.get_attribute("data-endpoint")]
    assert len(header) == len(rows[0]) and {row[-2] for row in rows} != {""}  # the range on every row


@pytest.mark.parametrize("language", ["en", "es"])
def test_without_javascript_the_chart_and_its_table_are_there_and_nothing_is_focusable(no_script_page, language):
    page = no_script_page
    article = trend_article()
    assert page.goto(address(article, language)).ok
    figure = page.locator("figure.trend-chart")
    chart = figure.locator("svg[role=img]")
    expect(chart).to_be_visible()
    lines = chart.locator("polyline.trend-line")
    expect(lines).to_have_count(2)
    for line in lines.all():
        assert line.bounding_box()["width"] > 100
    expect(chart.locator(".trend-point[tabindex]")).to_have_count(0)
    expect(figure.locator(".trend-controls")).to_be_hidden()
    expect(figure.locator(".chart-point-tip")).to_have_count(0)
    figure.locator("details.chart-data summary").click()
    expect(figure.locator("table.trend-table")).to_be_visible()
    expect(figure.locator("details.chart-data summary")).to_have_text(WORDS[language]["table"])
    expect(figure.locator("tbody tr.corrected")).to_contain_text(WORDS[language]["corrected"])
    assert_csv_is_the_plotted_points(page, figure)


def run_axe(page):
    results = AXE.run(page, context="figure.trend-chart",
                      options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    return results.response["violations"]


@pytest.mark.parametrize("language", ["en", "es"])
def test_tooltips_on_hover_and_focus_and_toggles_for_each_line(page, open_page, language):
    article = trend_article()
    assert page.goto(address(article, language)).ok
    figure = page.locator("figure.trend-chart")
    chart = figure.locator("svg.chart-svg")
    tip = figure.locator(".chart-point-tip")
    expect(figure.locator(".trend-controls")).to_be_visible()
    expect(figure.locator(".trend-hint")).to_contain_text(WORDS[language]["hint"])
    assert_csv_is_the_plotted_points(page, figure)

    # Hover: the point's value, date and note (a corrected point says so).
    corrected = chart.locator(".trend-corrected")
    corrected.hover()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text(corrected.get_attribute("data-tip-value"))
    expect(tip).to_contain_text(corrected.get_attribute("data-tip-date"))
    expect(tip).to_contain_text(WORDS[language]["corrected"])
    expect(tip).to_contain_text("Trend Host B")
    expect(tip).not_to_contain_text(WORDS[language]["changed"])
    tip.hover()  # the pointer may move onto the tooltip (WCAG 1.4.13), and Escape closes it
    expect(tip).to_be_visible()
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    chart.locator(".trend-point").first.hover()
    expect(tip).to_be_visible()
    page.mouse.move(1, 1)
    expect(tip).to_be_hidden()

    # Keyboard: one tab stop for the chart, the arrows from point to point.
    figure.locator("figcaption a").first.focus()
    page.keyboard.press("Tab")
    first = chart.locator(".trend-point").first
    expect(first).to_be_focused()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text(first.get_attribute("data-tip-value"))
    expect(first).to_have_attribute("aria-label", first.get_attribute("data-label"))
    page.keyboard.press("ArrowRight")
    second = chart.locator(".trend-point").nth(1)
    expect(second).to_be_focused()
    expect(tip).to_contain_text(second.get_attribute("data-tip-date"))
    page.keyboard.press("ArrowDown")
    expect(chart.locator("g.trend-series").nth(1).locator(".trend-point").nth(1)).to_be_focused()
    page.keyboard.press("End")  # the line's newest point, where the workload changed
    expect(chart.locator("g.trend-series").nth(1).locator(".trend-point").last).to_be_focused()
    expect(tip).to_contain_text(WORDS[language]["changed"])
    assert not (violations := run_axe(page)), violations_report(violations)  # with the tooltip open
    page.keyboard.press("Tab")  # out of the chart: to the first line's button
    expect(figure.locator(".trend-toggle").first).to_be_focused()
    expect(tip).to_be_hidden()

    # Toggles: a line hides and comes back; the other stays.
    toggle = figure.locator(".trend-toggle").first
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_contain_text("Trend Host A")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(chart.locator('g.trend-series[data-series="0"] polyline')).to_be_hidden()
    expect(chart.locator('g.trend-series[data-series="1"] polyline')).to_be_visible()
    expect(chart.locator(".trend-point[tabindex='0']")).to_have_count(1)
    assert chart.locator(".trend-point[tabindex='0']").evaluate("el => el.closest('g').dataset.series") == "1"
    assert not (violations := run_axe(page)), violations_report(violations)
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(chart.locator('g.trend-series[data-series="0"] polyline')).to_be_visible()
    assert page.console_errors == []

    phone = open_page(PHONE)  # the buttons are touch targets of 24 px or more (WCAG 2.5.8)
    assert phone.goto(address(article, language)).ok
    expect(phone.locator("figure.trend-chart .trend-controls")).to_be_visible()
    assert not (violations := run_axe(phone)), violations_report(violations)
    for button in phone.locator(".trend-toggle").all():
        box = button.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, box


@pytest.mark.parametrize("url", ["/en/glm-5-3-flash-providers/", "/es/proveedores-glm-5-3-flash/"])
def test_the_demo_scorecard_trend_does_what_its_note_says(page, url):
    """The note under the demo's chart asks the reader to hover or focus a point for its window."""
    assert page.goto(url).ok
    figure = page.locator("figure.trend-chart")
    tip = figure.locator(".chart-point-tip")
    toggles = figure.locator(".trend-toggle")
    assert toggles.count() == figure.locator("g.trend-series").count() >= 2
    point = figure.locator(".trend-point").nth(3)
    point.hover()
    expect(tip).to_contain_text(point.get_attribute("data-tip-date"))
    expect(tip).to_contain_text("24 h")  # the window the point aggregates
    figure.locator("figcaption a").last.focus()
    page.keyboard.press("Tab")
    expect(figure.locator(".trend-point").first).to_be_focused()
    expect(tip).to_be_visible()
    assert not (violations := run_axe(page)), violations_report(violations)
    assert page.console_errors == []
