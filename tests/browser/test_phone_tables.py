"""Tables on a 375 px phone: the sticky first column stays narrow, so after a swipe every value still has
its row label beside it and its column header above it; provider cells hold their long API identifiers.

Every row is checked, at every swipe position, with each <details> opened (a chart's data table is
one a reader opens), on every demo article's data page in both languages and on the articles."""

import pytest

from .viewports import PHONE

pytestmark = pytest.mark.browser

ARTICLES = ("/en/fastest-llm-api/", "/es/api-llm-mas-rapida/")
# The scorecard shows its API identifiers as the demo loads it.
SCORECARDS = ("/en/glm-5-3-flash-providers/", "/es/proveedores-glm-5-3-flash/")

# What a reader sees of each table, as a list of problems (empty: every value readable). A table
# that fits needs no swipe. One that scrolls must keep a narrow row label on every row, have no
# column wider than the space beside the labels (else a swipe lands on a blank stretch of one cell),
# show a header and values at each swipe position, and at the far end leave each row's label, each
# row's last value and the last header uncovered.
SWIPE_CHECK = """(limit) => {
  document.querySelectorAll('details').forEach(details => { details.open = true; });
  const problems = [];
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1) problems.push(`the page scrolls sideways: ${page.scrollWidth} px`);
  const textIn = (el, left, right) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return [...range.getClientRects()].some(r => r.width > 0 && r.right > left + 1 && r.left < right - 1);
  };
  const onTop = el => {
    const before = el.getBoundingClientRect();
    window.scrollBy(0, before.top + before.height / 2 - window.innerHeight / 2);
    const r = el.getBoundingClientRect();
    const found = document.elementFromPoint(r.left + Math.min(r.width / 2, 20), r.top + Math.min(r.height / 2, 10));
    return !!found && el.contains(found);
  };
  const shown = el => el.getClientRects().length > 0;
  [...document.querySelectorAll('.table-scroll')].filter(shown).forEach((box, n) => {
    const table = box.querySelector('table');
    const caption = table.querySelector('caption');
    const name = `table ${n + 1} (${(caption ? caption.textContent : table.className).trim().slice(0, 50)})`;
    box.scrollLeft = 0;
    if (box.scrollWidth <= box.clientWidth + 1) return;
    const heads = [...table.querySelectorAll('thead th')];
    // A row of one cell spanning the table (a group's heading, "no figures") has no label to keep.
    const rows = [...table.querySelectorAll('tbody tr')].filter(row => shown(row) && row.children.length > 1);
    const labelWidth = heads[0].getBoundingClientRect().width;
    if (labelWidth > limit) problems.push(`${name}: the sticky first column is ${Math.round(labelWidth)} px wide`);
    const pane = box.getBoundingClientRect().width - labelWidth;
    heads.slice(1).forEach(head => {
      const width = head.getBoundingClientRect().width;
      if (width > pane + 1) {
        problems.push(`${name}: column “${head.textContent.trim()}” is ${Math.round(width)} px, wider than the ${Math.round(pane)} px beside the row labels`);
      }
    });
    const labels = rows.map(row => row.querySelector(':scope > th[scope=row]:first-child'));
    labels.forEach((label, i) => { if (!label) problems.push(`${name} row ${i + 1}: no row label stays put`); });
    const end = box.scrollWidth - box.clientWidth;
    const steps = [];
    for (let x = 0; x < end; x += Math.max(40, pane / 2)) steps.push(Math.round(x));
    steps.push(end);
    for (const x of steps) {
      box.scrollLeft = x;
      const frame = box.getBoundingClientRect();
      const left = frame.left + labelWidth;
      if (!heads.slice(1).some(head => textIn(head, left, frame.right))) problems.push(`${name} swiped ${x} px: no column header in view`);
      const values = rows.flatMap(row => [...row.children].slice(1)).filter(cell => cell.textContent.trim());
      if (values.length && !values.some(cell => textIn(cell, left, frame.right))) {
        problems.push(`${name} swiped ${x} px: only the row labels and blank space in view`);
      }
    }
    box.scrollLeft = end;
    if (!onTop(heads[heads.length - 1])) problems.push(`${name}: after a swipe the last column's header is covered`);
    rows.forEach((row, i) => {
      const last = row.lastElementChild;
      if (labels[i] && !onTop(labels[i])) problems.push(`${name} row ${i + 1}: after a swipe its label is hidden`);
      if (last.textContent.trim() && !onTop(last)) problems.push(`${name} row ${i + 1}: after a swipe its last value is covered`);
    });
  });
  return problems;
}"""


def swipe_problems(page):
    return page.evaluate(SWIPE_CHECK, 0.45 * page.viewport_size["width"])


def assert_readable(page, url):
    problems = swipe_problems(page)
    assert problems == [], f"{url}: {len(problems)} problems, the first: {problems[:8]}"


def data_pages(language):
    """The data page of every live demo article that has a version in `language`."""
    from articles.data_routes import data_segment
    from articles.models import ArticlePage
    from localized.alternates import has_language_version, translated_url

    return [
        f"{translated_url(article, language)}{data_segment(language)}/"
        for article in ArticlePage.objects.live().order_by("path")
        if has_language_version(article, language)
    ]


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_data_page_keeps_each_value_beside_its_label_and_under_its_header(open_page, language):
    pages = data_pages(language)
    assert len(pages) >= 2, f"the demo's articles have data pages in {language}: {pages}"
    page = open_page(PHONE)
    for url in pages:
        assert page.goto(url).ok, url
        assert page.locator("table.data-table tbody tr").count() > 10, f"{url}: a data page with its figures"
        assert_readable(page, url)


@pytest.mark.parametrize("url", ARTICLES + SCORECARDS)
def test_after_a_swipe_values_keep_their_row_label_and_column_header(open_page, url):
    page = open_page(PHONE)
    assert page.goto(url).ok
    assert page.locator(".table-scroll").count() > 0, f"{url}: no table"
    assert_readable(page, url)


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
