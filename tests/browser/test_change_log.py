"""A reader who wonders what changed follows the article's "Updated" line (or, on a page without that
line, its change-log link) to the change log and finds the corrected figures there, in English and in
Spanish: when, which endpoint and metric, the old and new values, the source and snapshot, the
correction note and the statements the correction marked, newest first over several pages. The log
reads on a desktop and on a 375 px phone."""

from datetime import datetime
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from .test_phone_tables import SWIPE_CHECK
from .viewports import DESKTOP, PHONE

pytestmark = pytest.mark.browser

ARTICLE = {"en": "/en/fastest-llm-api/", "es": "/es/api-llm-mas-rapida/"}
SCORECARD = {"en": "/en/glm-5-3-flash-providers/", "es": "/es/proveedores-glm-5-3-flash/"}
LOG = {"en": "changes/", "es": "cambios/"}
NOTE = "Re-measured after a provider outage: the first run timed a warm cache and overstated the speed"
LATER_NOTE = "Together AI re-run with the fixed client"
WORDS = {
    "en": {
        "heads": ["Place", "Figure", "Was", "Now"], "correction": "Correction", "source": "Source:",
        "snapshot": "snapshot #{id}, measured {at:%Y-%m-%d %H:%M}", "note": "Correction note: ",
        "metric": "Output speed", "statement": "Statement marked: “Baseten's premium tier leads two of the current models”",
        "held": "matched the data", "broke": "no longer matches the data", "page": "Page {n} of {of}",
        "next": "Next", "previous": "Previous", "link": "Every change of a figure on this page",
    },
    "es": {
        "heads": ["Lugar", "Cifra", "Antes", "Ahora"], "correction": "Corrección", "source": "Fuente:",
        "snapshot": "instantánea n.º {id}, medida el {at:%Y-%m-%d %H:%M}", "note": "Nota de corrección: ",
        "metric": "Velocidad de salida",
        "statement": "Afirmación marcada: «El nivel prémium de Baseten lidera dos de los modelos actuales»",
        "held": "coincidía con los datos", "broke": "ya no coincide con los datos", "page": "Página {n} de {of}",
        "next": "Siguiente", "previous": "Anterior", "link": "Todos los cambios de las cifras de esta página",
    },
}


def correct_speed(provider, tier, add, note, snapshot=None):
    """Correct one output speed of the GLM-5.3 benchmark the demo article shows: (correction, old, new) as printed."""
    from benchmarks.models import Measurement
    from tests.figures_support import publish_correction

    rows = Measurement.objects.filter(
        snapshot__status="published", snapshot__source__title_en="GLM-5.3 providers",
        metric="output_speed_median", endpoint__provider__slug=provider, endpoint__tier=tier,
    )
    row = rows.select_related("snapshot").get()
    correction = publish_correction(row.snapshot, {(row.endpoint_id, row.metric): row.value + add}, note=note)
    return correction, f"{row.value:.1f}", f"{row.value + add:.1f}"


def fill_the_log_past_one_page():
    """Earlier corrections that take Baseten (Fast)'s speed away from 283.4 and back, until the demo
    article's log runs past its first page (50 rows) in both languages; the figure ends where it began."""
    from articles.change_log import PER_PAGE
    from reviews.models import FigureChange

    for round_number in range(1, 11):
        correct_speed("baseten", "Fast", Decimal("16.6"), f"Re-run {round_number}")
        correct_speed("baseten", "Fast", Decimal("-16.6"), f"Re-run {round_number}, reverted")
        logged = FigureChange.objects.filter(page__url_path__endswith="/fastest-llm-api/")
        if min(logged.filter(language=language).count() for language in ("en", "es")) > PER_PAGE + 10:
            return
    raise AssertionError("ten rounds of corrections did not fill a page of the log")


def heading_times(page):
    return [datetime.fromisoformat(value) for value in page.locator("th[scope=rowgroup] time").evaluate_all(
        "times => times.map(time => time.getAttribute('datetime'))"
    )]


def test_the_updated_line_leads_to_the_change_log_with_the_correction(page):
    _correction, old, new = correct_speed("baseten", "", Decimal("10"), NOTE)

    page.goto(ARTICLE["en"])
    page.locator("p.meta a.change-log-link").click()
    expect(page).to_have_url(f"{page.url.split('/en/')[0]}{ARTICLE['en']}changes/")
    expect(page.locator("h1")).to_contain_text("Changes to")
    change_set = page.locator("tbody.change-set").first
    expect(change_set.locator("th[scope=rowgroup]")).to_contain_text(f"Correction note: {NOTE}")
    row = change_set.locator("tr", has_text="Output speed").first
    expect(row.locator("td.num").nth(0)).to_have_text(old)
    expect(row.locator("td.num").nth(1)).to_have_text(new)

    page.goto(ARTICLE["es"])
    page.locator("p.meta a.change-log-link").click()
    expect(page).to_have_url(f"{page.url.split('/es/')[0]}{ARTICLE['es']}cambios/")
    expect(page.locator("tbody.change-set").first).to_contain_text(f"Nota de corrección: {NOTE}")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_without_the_updated_line_a_visible_link_leads_to_the_change_log(page, lang):
    # The scorecard's meta line is off (its show_meta_line): the link stands on its own.
    page.goto(SCORECARD[lang])
    link = page.locator("main a.change-log-link")
    expect(link).to_be_visible()
    expect(link).to_have_text(WORDS[lang]["link"])
    title = page.locator("h1").inner_text()
    link.click()
    expect(page).to_have_url(f"{page.url.split(SCORECARD[lang])[0]}{SCORECARD[lang]}{LOG[lang]}")
    expect(page.locator("h1")).to_contain_text(title)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_after_corrections_the_log_shows_every_detail_newest_first_over_several_pages(page, lang):
    from django.utils import formats, timezone, translation

    words = WORDS[lang]
    fill_the_log_past_one_page()
    first, old, new = correct_speed("baseten", "Fast", Decimal("-143.4"), NOTE)
    correct_speed("together-ai", "", Decimal("5.7"), LATER_NOTE)
    first.refresh_from_db()

    page.goto(ARTICLE[lang])
    page.locator("p.meta a.change-log-link").click()
    expect(page).to_have_url(f"{page.url.split(ARTICLE[lang])[0]}{ARTICLE[lang]}{LOG[lang]}")
    expect(page.locator("table.change-log thead th")).to_have_text(words["heads"])

    # Newest first: the later correction, then the first one, then what the demo's load recorded.
    sets = page.locator("tbody.change-set")
    expect(sets.nth(0).locator("th[scope=rowgroup]")).to_contain_text(LATER_NOTE)
    expect(sets.nth(1).locator("th[scope=rowgroup]")).to_contain_text(NOTE)
    times = heading_times(page)
    assert times == sorted(times, reverse=True) and len(times) >= 3, times

    heading = sets.nth(1).locator("th[scope=rowgroup]")
    with translation.override(lang):
        date = formats.date_format(timezone.localtime(first.published_at), "DATE_FORMAT")
    expect(heading.locator("time")).to_have_text(date)
    assert datetime.fromisoformat(heading.locator("time").get_attribute("datetime")) == first.published_at
    expect(heading.locator("strong")).to_have_text(words["correction"])
    expect(heading).to_contain_text(words["source"])
    source = heading.locator("a")
    expect(source).to_have_attribute("href", first.source.url)
    expect(source).to_contain_text("Artificial Analysis")
    expect(heading).to_contain_text(words["snapshot"].format(id=first.pk, at=timezone.localtime(first.measured_at)))
    expect(heading.locator(".correction-note")).to_have_text(words["note"] + NOTE)

    # The endpoint and metric, and the figure before → after, in their own columns.
    figure = sets.nth(1).locator("tr", has=page.locator("th[scope=row]", has_text=f"Baseten (Fast) · {words['metric']}"))
    expect(figure.first.locator("td.num").nth(0)).to_have_text(old)
    expect(figure.first.locator("td.num").nth(1)).to_have_text(new)
    assert (old, new) == ("283.4", "140.0")
    # The statement the correction made false, with what it matched and what broke it.
    statement = sets.nth(1).locator("tr.change-log-statement", has_text=words["statement"])
    expect(statement).to_have_count(1)
    expect(statement.locator("td").nth(1)).to_contain_text(words["held"])
    expect(statement.locator("td").nth(2)).to_contain_text(words["broke"])
    expect(statement.locator("td").nth(2)).to_contain_text("140.0")

    # More than one page, and the order carries on across them.
    status = page.locator("nav.pagination li").nth(1)
    total = int(status.inner_text().split()[-1])
    assert total >= 2, "the demo's changes and the corrections fill more than one page"
    expect(status).to_have_text(words["page"].format(n=1, of=total))
    last_on_first = heading_times(page)[-1]
    page.locator("nav.pagination").get_by_role("link", name=words["next"]).click()
    expect(page).to_have_url(f"{page.url.split('?')[0]}?page=2")
    expect(page.locator("nav.pagination li").nth(1)).to_have_text(words["page"].format(n=2, of=total))
    expect(page.locator("nav.pagination").get_by_role("link", name=words["previous"])).to_be_visible()
    assert heading_times(page)[0] <= last_on_first


NOTE_PLACE = """() => {
  const note = document.querySelector('tbody.change-set .correction-note');
  note.scrollIntoView({block: 'center'});
  const r = note.getBoundingClientRect();
  // Each line of the note: its box may start mid-line, after the snapshot.
  const onTop = [...note.getClientRects()].every(line => {
    const found = document.elementFromPoint(line.left + Math.min(line.width / 2, 20), line.top + line.height / 2);
    return !!found && note.contains(found);
  });
  const numbers = [...document.querySelectorAll('table.change-log td.num')].filter(cell => /^[0-9.,$%−-]+$/.test(cell.textContent.trim()));
  const oneLine = cell => { const range = document.createRange(); range.selectNodeContents(cell);
    return new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size === 1; };
  const box = document.querySelector('table.change-log').closest('.table-scroll');
  return {left: r.left, right: r.right, onTop, pageWidth: document.documentElement.scrollWidth,
          fits: box.scrollWidth <= box.clientWidth + 1, brokenNumbers: numbers.filter(cell => !oneLine(cell)).map(cell => cell.textContent.trim())};
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280px", "375px"])
def test_the_log_reads_on_a_desktop_and_a_phone(open_page, viewport):
    correct_speed("baseten", "Fast", Decimal("-143.4"), NOTE)
    page = open_page(viewport)
    for lang in ("en", "es"):
        url = f"{ARTICLE[lang]}{LOG[lang]}"
        assert page.goto(url).ok
        # The table fits, or scrolls in its own region with its row labels and headers in view.
        problems = page.evaluate(SWIPE_CHECK, 0.45 * viewport["width"])
        assert problems == [], f"{url}: {problems[:8]}"
        place = page.evaluate(NOTE_PLACE)
        assert place["pageWidth"] <= viewport["width"], f"{url}: the page scrolls sideways: {place}"
        assert 0 <= place["left"] and place["right"] <= viewport["width"] and place["onTop"], (
            f"{url}: the correction note is not in view without scrolling sideways: {place}"
        )
        assert place["fits"], f"{url}: the log is wider than the screen: {place}"
        assert place["brokenNumbers"] == [], f"{url}: numbers broken across lines: {place}"
        expect(page.locator("tr.change-log-statement").first).to_be_visible()
