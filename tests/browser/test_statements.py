"""A reader after a correction (issue 24): each sentence the data no longer bears out is marked, says
since when, and opens the figures that broke it by keyboard, in English and in Spanish."""

import pytest
from playwright.sync_api import expect

from .viewports import DESKTOP

pytestmark = pytest.mark.browser

PAGES = {"en": "/en/fastest-llm-api/", "es": "/es/api-llm-mas-rapida/"}
MARK = {"en": "no longer matches the data since", "es": "ya no coincide con los datos desde"}
CARD = {"en": "Leads two of the three current models, both times through its premium Fast tier.",
        "es": "Lidera dos de los tres modelos actuales, en ambos casos con su nivel prémium Fast."}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_false_statement_is_marked_and_its_evidence_opens_by_keyboard(open_page, lang):
    from tests.test_demo_statements import correct_baseten_fast

    page = open_page(DESKTOP)
    assert page.goto(PAGES[lang]).ok
    expect(page.locator(".statement--false")).to_have_count(0)

    correct_baseten_fast()
    assert page.goto(PAGES[lang]).ok
    card = page.locator(".card-summary", has=page.locator(".statement--false", has_text=CARD[lang]))
    expect(card).to_have_count(1)
    expect(card.locator(".statement-flag")).to_contain_text(MARK[lang])
    assert page.locator(".statement--false").count() >= 6

    button = card.locator(".statement-flag + .prov-toggle")
    panel = card.locator(".statement-flag + .prov-toggle + .prov-panel")
    expect(panel).to_be_hidden()
    # Reached by Tab from the control before it, in the page's tab order: not only focusable by script.
    button.evaluate("""button => {
        const order = [...document.querySelectorAll('a[href], button, [tabindex]:not([tabindex="-1"])')]
            .filter(el => el.offsetParent !== null);
        order[order.indexOf(button) - 1].focus();
    }""")
    page.keyboard.press("Tab")
    expect(button).to_be_focused()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Baseten (Fast) · GLM-5.3")
    expect(panel).to_contain_text("140")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    # The summary's false sentence is marked on the page and gone from the description.
    expect(page.locator("p.summary .statement--false")).to_have_count(1)
    description = page.locator('meta[name="description"]').get_attribute("content")
    assert page.locator("p.summary .statement--false").text_content() not in description
