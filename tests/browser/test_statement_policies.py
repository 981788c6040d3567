"""A reader of the demo article after the issue's correction (Baseten (Fast)'s GLM-5.3 output speed
283.4 → 140), under each policy a page can choose for a statement the data no longer bears out:
"hide" takes the whole sentence away, leaving no stray punctuation; "hold" keeps the figures of the
last moment every statement held, under a banner; "mark" (the default) clears its mark when the
data bears the sentence out again. And a data reference in prose whose figure has aged prints its
last value with the stale mark and its date. English and Spanish."""

import datetime
import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from .viewports import DESKTOP

pytestmark = pytest.mark.browser

PAGES = {"en": "/en/fastest-llm-api/", "es": "/es/api-llm-mas-rapida/"}
# Sentences the correction makes false (the sentences 2 and 5, and the GLM-5.3 lead).
GONE = {
    "en": ["stands well ahead", "Baseten's premium tier, which is sold as a separate",
           "runner-up on output speed for every current model"],
    "es": ["uno va claramente por delante", "el nivel prémium de Baseten, que se vende",
           "segundo en velocidad de salida en todos los modelos actuales"],
}
# Sentences that still hold, around them.
KEPT = {"en": "Fastest GLM-5.3-Flash host", "es": "El proveedor más rápido de GLM-5.3-Flash"}
HELD = {"en": "newer data is under editorial review", "es": "los datos más recientes están en revisión editorial"}
GLM_TABLE = {"en": "Providers of GLM-5.3", "es": "Proveedores de GLM-5.3"}
MARK = {"en": "no longer matches the data since", "es": "ya no coincide con los datos desde"}
STALE = {"en": "stale · ", "es": "desfasado · "}
# What a sentence cut in the middle leaves behind.
ORPHAN = re.compile(r"\s[,.;:]|[,;:]\s*[,.;:]|^\s*[,.;:]|:\s*$| {2,}")
PROSE = "p.summary, .rich-text, .card-summary, .chart-note"


def set_policy(policy):
    from articles.models import ArticlePage

    ArticlePage.objects.filter(slug_en="fastest-llm-api").update(statement_policy=policy)


def correct_glm_fast(value):
    """A correction of the published GLM-5.3 snapshot setting Baseten (Fast)'s output speed."""
    from benchmarks.models import Measurement
    from tests.figures_support import publish_correction

    row = Measurement.objects.get(
        snapshot__status="published", snapshot__source__title_en="GLM-5.3 providers", metric="output_speed_median",
        endpoint__provider__slug="baseten", endpoint__tier="Fast",
    )
    return publish_correction(row.snapshot, {(row.endpoint_id, row.metric): Decimal(value)})


# Each text without the controls next to figures (the ⓘ button and its hidden trail, footnote
# markers): their own layout spacing is not the sentence's.
PROSE_TEXT = """nodes => nodes.map(node => {
  const copy = node.cloneNode(true);
  copy.querySelectorAll("button, .prov-panel, sup.fn, .stale-flag").forEach(child => child.remove());
  return copy.textContent.replace(/\\s*\\n\\s*/g, " ");
})"""


def prose(page):
    """The words a reader sees in each piece of prose."""
    return page.eval_on_selector_all(PROSE, PROSE_TEXT)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_hide_takes_the_whole_sentence_away_and_leaves_no_stray_punctuation(open_page, lang):
    set_policy("hide")
    page = open_page(DESKTOP)
    assert page.goto(PAGES[lang]).ok
    for words in GONE[lang]:
        expect(page.get_by_text(words, exact=False).first).to_be_attached()

    correct_glm_fast("140")
    assert page.goto(PAGES[lang]).ok
    expect(page.locator(".statement--false")).to_have_count(0)
    expect(page.locator(".statement-flag")).to_have_count(0)
    for words in GONE[lang]:
        expect(page.get_by_text(words, exact=False)).to_have_count(0)
    expect(page.get_by_text(KEPT[lang], exact=False).first).to_be_visible()
    texts = prose(page)
    assert texts and [text for text in texts if ORPHAN.search(text.strip())] == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_hold_keeps_the_figures_of_the_last_moment_every_statement_held(open_page, lang):
    set_policy("hold")
    correct_glm_fast("140")
    page = open_page(DESKTOP)
    assert page.goto(PAGES[lang]).ok
    banner = page.locator(".held-data")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(HELD[lang])
    # The GLM-5.3 table still prints Baseten (Fast)'s figure from before the correction.
    glm = page.locator("table", has=page.locator("caption", has_text=re.compile(rf"^{GLM_TABLE[lang]}$")))
    expect(glm).to_contain_text("283.4")
    expect(glm).not_to_contain_text("140.0")
    # On that data every statement holds: nothing is marked, the sentences read as written.
    expect(page.locator(".statement--false")).to_have_count(0)
    for words in GONE[lang]:
        expect(page.get_by_text(words, exact=False).first).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_statement_borne_out_again_loses_its_mark(open_page, lang):
    draft = correct_glm_fast("140")
    page = open_page(DESKTOP)
    assert page.goto(PAGES[lang]).ok
    runner_up = page.locator(".statement--false", has_text=GONE[lang][2])
    expect(runner_up).to_have_count(1)
    expect(page.locator(".statement-flag").first).to_contain_text(MARK[lang])

    from tests.figures_support import publish_correction

    draft.refresh_from_db()
    row = draft.measurements.get(metric="output_speed_median", endpoint__provider__slug="baseten", endpoint__tier="Fast")
    publish_correction(draft, {(row.endpoint_id, row.metric): Decimal("283.4")})
    assert page.goto(PAGES[lang]).ok
    expect(page.locator(".statement--false")).to_have_count(0)
    expect(page.locator(".statement-flag")).to_have_count(0)
    expect(page.locator(".statement:not(.statement--false)", has_text=GONE[lang][2])).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_stale_reference_in_prose_prints_its_last_value_with_the_mark_and_date(open_page, lang):
    from django.db import transaction

    from benchmarks.models import Source
    from tests.test_demo_decay import age_demo_data

    # Demo data never goes stale: the benchmark's sources are made real ones, then two months pass
    # (staged in one transaction, as the history triggers allow only there: tests/refresh_support.py).
    Source.objects.filter(publisher="Artificial Analysis").update(is_demo=False)
    with transaction.atomic():
        age_demo_data(by=datetime.timedelta(days=60))
    page = open_page(DESKTOP)
    assert page.goto(PAGES[lang]).ok
    stale = page.locator(".rich-text .dataref--stale")
    assert stale.count() >= 3
    for n in range(stale.count()):
        figure = stale.nth(n)
        expect(figure).to_be_visible()
        assert figure.inner_text().strip() not in ("", "—")  # the last value, not a dash
        flag = figure.locator("xpath=following-sibling::*[1]")
        expect(flag).to_have_class(re.compile(r"\bstale-flag\b"))
        expect(flag).to_have_text(re.compile(rf"^{STALE[lang]}\d{{1,2}} \w+$"))  # "stale · 5 Oct"
