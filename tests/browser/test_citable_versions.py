"""A reader who cites a figure opens the permanent address of the version they read: before and after
a correction of that figure it shows the value as it was, under a banner leading to the current
version, which shows the corrected value; the "Cite this page" box opens without JavaScript tricks."""

import time

import pytest
from playwright.sync_api import expect

from .test_change_log import ARTICLE, correct_speed

ARTICLE_EN, ARTICLE_ES = ARTICLE["en"], ARTICLE["es"]


def correct_a_shown_speed():
    """Correct Baseten's standard-tier GLM-5.3 output speed the demo article shows: (old, new) as printed."""
    from decimal import Decimal

    _correction, old, new = correct_speed("baseten", "", Decimal("10"), "Re-measured")
    return old, new

pytestmark = pytest.mark.browser


def figures(page):
    """The figures the article's tables print (each <data> element's text)."""
    return page.locator("table data").all_inner_texts()


def shows(values, number):
    return any(value.startswith(number) for value in values)


def test_an_as_of_address_shows_the_value_before_a_correction_and_leads_to_the_current_one(page):
    from django.utils import timezone

    from articles.versions import format_moment

    t0 = timezone.now()
    time.sleep(1.1)  # an address answers once its second is over
    address = f"{ARTICLE_EN}as-of/{format_moment(t0)}/"

    page.goto(address)
    banner = page.locator("p.as-of-banner")
    expect(banner).to_contain_text("You are reading this article as it was on")
    before = figures(page)

    old, new = correct_a_shown_speed()
    assert shows(before, old) and not shows(before, new)
    page.goto(address)
    expect(banner).to_contain_text("You are reading this article as it was on")
    assert figures(page) == before, "an archived version never changes"

    banner.locator("a.as-of-current").click()
    expect(page).to_have_url(f"{page.url.split('/en/')[0]}{ARTICLE_EN}")
    expect(page.locator("p.as-of-banner")).to_have_count(0)
    now = figures(page)
    assert shows(now, new) and not shows(now, old)

    # The current page's box names its own version: the correction's second.
    box = page.locator("section.cite-box")
    expect(box.locator("h2")).to_have_text("Cite this page")
    expect(box.locator(".cite-apa")).not_to_be_visible()
    box.locator("summary").click()
    expect(box.locator(".cite-apa")).to_be_visible()
    expect(box.locator(".cite-bibtex")).to_contain_text("urldate = {")
    cited = box.locator("a.cite-url").get_attribute("href")
    assert "/as-of/" in cited
    time.sleep(1.1)
    # The address as printed, host and port included: the one this reader reached the site at.
    assert cited.startswith(page.url.split("/en/")[0] + "/en/"), cited
    page.goto(cited)
    assert shows(figures(page), new)


@pytest.mark.parametrize(("address", "today_words"), [(ARTICLE_EN, "%B %-d, %Y"), (ARTICLE_ES, "%-d de")])
def test_the_cite_box_gives_the_readers_own_access_date(page, address, today_words):
    """The box is stored and cached for hours, so the date a reader accessed the page is the browser's
    today, in the access line, the APA text and BibTeX's urldate (not the day it was rendered)."""
    from datetime import date

    today = date.today()
    page.goto(address)
    box = page.locator("section.cite-box")
    access = box.locator(".cite-access time")
    expect(access).to_have_attribute("datetime", today.isoformat())
    if address == ARTICLE_EN:
        expect(access).to_have_text(today.strftime(today_words))
    else:  # Spanish words, no English month
        expect(access).to_contain_text(today.strftime(today_words))
        assert today.strftime("%B") not in access.inner_text()
    box.locator("summary").click()
    expect(box.locator(".cite-apa time.cite-retrieved")).to_have_attribute("datetime", today.isoformat())
    expect(box.locator(".cite-apa time.cite-retrieved")).to_have_text(access.inner_text())
    expect(box.locator(".cite-bibtex")).to_contain_text(f"urldate = {{{today.isoformat()}}}")
