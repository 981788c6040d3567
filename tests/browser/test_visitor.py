"""What a reader does on the demo article: read tables, charts and cards, switch language, follow footnotes."""

import re
import time

import pytest
from playwright.sync_api import expect

from .viewports import DESKTOP, PHONE

pytestmark = pytest.mark.browser

ARTICLE_EN = "/en/fastest-llm-api/"
ARTICLE_ES = "/es/api-llm-mas-rapida/"
TITLE_EN = "Fastest LLM API: output speed per model, not per vendor"
TITLE_ES = "La API de LLM más rápida: velocidad de salida por modelo, no por proveedor"


def assert_clean(page):
    assert page.console_errors == [], f"console errors on {page.url}:\n" + "\n".join(page.console_errors)
    assert page.external_requests == [], f"{page.url} asked other hosts: {page.external_requests}"


def test_english_article_shows_tables_charts_and_cards(page, screenshot):
    assert page.goto(ARTICLE_EN).ok

    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text(TITLE_EN)
    # One provider table per model, every one with measured rows and a price column.
    tables = page.locator(".table-scroll table.provider-table")
    expect(tables).to_have_count(4)
    for table in tables.all():
        expect(table.locator("thead")).to_contain_text("Output speed (tokens/s)")
        expect(table.locator("thead")).to_contain_text("Price in / out per 1M")
        assert table.locator("tbody tr").count() >= 3
        expect(table.locator("tbody tr").first.locator("data").first).to_be_visible()
    glm = tables.first
    expect(glm.locator("tbody tr").first.locator("th")).to_contain_text("Baseten")

    # Bar charts draw their bars (the stylesheet gives them a width), longest first.
    charts = page.locator("figure.bar-chart")
    assert charts.count() >= 4
    for chart in charts.all():
        widths = [bar.bounding_box()["width"] for bar in chart.locator(".bar").all()]
        assert len(widths) >= 3 and min(widths) > 0, f"bars not drawn (widths in px): {widths}"
        assert widths == sorted(widths, reverse=True), f"bars not ordered by value: {widths}"
        expect(chart.locator("caption")).to_contain_text("by provider")

    cards = page.locator("ol.provider-cards > li.provider-card")
    expect(cards).to_have_count(7)
    expect(cards.first.locator("h3")).to_have_text("Baseten")
    expect(cards.first).to_contain_text("Strengths")
    expect(cards.first.locator(".card-values data").first).to_be_visible()

    screenshot(page, "article-en-desktop")
    assert_clean(page)


def test_language_switcher_leads_to_the_spanish_page_and_back(page, screenshot):
    assert page.goto(ARTICLE_EN).ok
    switcher = page.locator("nav.language-switcher")
    expect(switcher.locator("[aria-current]")).to_have_text("English")

    switcher.get_by_role("link", name="español").click()
    expect(page).to_have_url(re.compile(re.escape(ARTICLE_ES) + "$"))
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("h1")).to_have_text(TITLE_ES)
    expect(page.locator("table.provider-table thead").first).to_contain_text("Velocidad de salida (tokens/s)")
    expect(switcher.locator("[aria-current]")).to_have_text("español")
    screenshot(page, "article-es-desktop")
    assert_clean(page)

    switcher.get_by_role("link", name="English").click()
    expect(page).to_have_url(re.compile(re.escape(ARTICLE_EN) + "$"))
    expect(page.locator("h1")).to_have_text(TITLE_EN)
    assert_clean(page)


# How each provider table's box and the whole page measure up, in CSS pixels.
OVERFLOW = """() => ({
  page: {scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth},
  tables: [...document.querySelectorAll('.table-scroll')]
    .filter(box => box.querySelector('table.provider-table'))
    .map(box => ({scroll: box.scrollWidth, client: box.clientWidth})),
})"""


def test_provider_tables_scroll_sideways_inside_their_box_on_a_phone(open_page, screenshot):
    page = open_page(PHONE)
    for url, name in ((ARTICLE_EN, "article-en-phone"), (ARTICLE_ES, "article-es-phone")):
        assert page.goto(url).ok
        sizes = page.evaluate(OVERFLOW)
        assert sizes["page"]["scroll"] <= sizes["page"]["client"] == PHONE["width"], (
            f"{url}: the page itself scrolls sideways at {PHONE['width']} px: {sizes['page']}"
        )
        assert sizes["tables"], f"{url}: no provider table"
        for box in sizes["tables"]:
            assert box["scroll"] > box["client"], (
                f"{url}: a provider table fits without scrolling, test proves nothing: {box}"
            )
        expect(page.locator(".swipe-hint").first).to_be_visible()

        # A sideways swipe (wheel) over the table moves the table, not the page.
        box = page.locator(".table-scroll:has(table.provider-table)").first
        box.scroll_into_view_if_needed()
        box.hover()
        page.mouse.wheel(200, 0)
        assert wait_until(lambda box=box: box.evaluate("el => el.scrollLeft") > 0), (
            "the table did not scroll sideways"
        )
        assert page.evaluate("window.scrollX") == 0, "the page scrolled sideways with the table"
        box.evaluate("el => { el.scrollLeft = 0; }")
        screenshot(page, name)
        assert_clean(page)


def wait_until(condition, seconds=2.0):
    """Poll `condition` for a short, bounded time (scrolling settles asynchronously)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_footnote_links_jump_to_the_numbered_source(open_page):
    from articles.models import ArticlePage

    article = ArticlePage.objects.get(slug_en="fastest-llm-api")
    listed = [row.source for row in article.page_sources.order_by("sort_order")]
    page = open_page(DESKTOP)
    assert page.goto(ARTICLE_EN).ok
    expect(page.locator("section.sources ol > li")).to_have_count(len(listed))

    number = 9
    link = page.locator(f"sup.fn a[href='#source-{number}']").first
    expect(link).to_have_text(str(number))
    link.click()

    expect(page).to_have_url(re.compile(f"#source-{number}$"))
    target = page.locator(":target")
    expect(target).to_have_attribute("id", f"source-{number}")
    # The target is the ninth item of the numbered list, it names the ninth source, and it is on screen.
    assert (
        target.evaluate("li => li.tagName === 'LI' && [...li.parentElement.children].indexOf(li) + 1")
        == number
    )
    expect(target).to_contain_text(f"{listed[number - 1].publisher} · {listed[number - 1].title}")
    expect(target).to_be_in_viewport()
    assert_clean(page)
