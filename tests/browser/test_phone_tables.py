"""Tables on a 375 px phone: the sticky first column stays narrow, so after a swipe every value still has
its row label beside it and its column header above it; provider cells hold their long API identifiers."""

import pytest

from .viewports import PHONE

pytestmark = pytest.mark.browser

DATA_PAGES = ("/en/fastest-llm-api/data/", "/es/api-llm-mas-rapida/data/")
ARTICLES = ("/en/fastest-llm-api/", "/es/api-llm-mas-rapida/")
# The scorecard shows its API identifiers as the demo loads it.
SCORECARDS = ("/en/glm-5-3-flash-providers/", "/es/proveedores-glm-5-3-flash/")

# Swipe each table to its far end, then look at what a reader sees there.
AFTER_SWIPE = """() => [...document.querySelectorAll('.table-scroll')].map(box => {
  box.scrollIntoView();
  box.scrollLeft = box.scrollWidth;
  const table = box.querySelector('table');
  const sticky = table.querySelector('tbody tr th[scope=row]:first-child');
  const heads = [...table.querySelectorAll('thead th')];
  const last = heads[heads.length - 1].getBoundingClientRect();
  const cell = table.querySelector('tbody tr:first-child > :last-child').getBoundingClientRect();
  const hit = (box, el) => {
    const found = document.elementFromPoint(box.left + box.width / 2, box.top + Math.min(box.height / 2, 10));
    return !!found && el.contains(found);
  };
  return {
    scrolled: box.scrollLeft > 0,
    stickyWidth: sticky ? sticky.getBoundingClientRect().width : null,
    headWidth: heads[0].getBoundingClientRect().width,
    lastHeaderShown: hit(last, heads[heads.length - 1]),
    lastCellShown: hit(cell, table.querySelector('tbody tr:first-child > :last-child')),
  };
})"""


@pytest.mark.parametrize("url", DATA_PAGES + ARTICLES + SCORECARDS)
def test_after_a_swipe_values_keep_their_row_label_and_column_header(open_page, url):
    page = open_page(PHONE)
    assert page.goto(url).ok
    tables = page.evaluate(AFTER_SWIPE)
    assert tables, f"{url}: no table"
    limit = 0.45 * PHONE["width"]
    for number, table in enumerate(tables, start=1):
        if not table["scrolled"]:
            continue  # fits the screen: nothing to swipe
        assert table["stickyWidth"] is not None, f"{url} table {number}: no row label stays put: {table}"
        assert table["stickyWidth"] <= limit and table["headWidth"] <= limit, (
            f"{url} table {number}: the sticky first column is wider than 45 % of {PHONE['width']} px: {table}"
        )
        assert table["lastHeaderShown"] and table["lastCellShown"], (
            f"{url} table {number}: after a swipe the last column's header or value is hidden: {table}"
        )


PROVIDER_OVERFLOW = """() => [...document.querySelectorAll('table.provider-table tbody th[scope=row]')].flatMap(th => {
  const edge = th.getBoundingClientRect().right;
  return [...th.querySelectorAll('*')].filter(el => el.getBoundingClientRect().right > edge + 0.5)
    .map(el => `${el.textContent.trim()} ends ${(el.getBoundingClientRect().right - edge).toFixed(0)} px past its cell`);
})"""


@pytest.mark.parametrize("url", ARTICLES + SCORECARDS)
def test_provider_cells_hold_long_api_identifiers(open_page, url, settings):
    from articles.models import ArticlePage

    # Every provider table shows its endpoints' API identifiers, the longest the demo has.
    article = ArticlePage.objects.get(slug_en="fastest-llm-api")
    body = article.body.raw_data
    for block in body:
        if block["type"] == "provider_table":
            block["value"]["show_api_model"] = True
    article.body = body
    article.save_revision().publish()
    page = open_page(PHONE)
    assert page.goto(url).ok
    assert page.locator("table.provider-table .api-model").count() > 0
    overflowing = page.evaluate(PROVIDER_OVERFLOW)
    assert overflowing == [], f"{url}: provider names or API identifiers overflow their cells: {overflowing}"
