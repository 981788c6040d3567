"""Readers: a stale pick says so, footnote markers stand apart, provenance opens by keyboard, and on a
375 px phone the first column stays put, the leaderboard's values show and every wide table says swipe."""

import datetime

import pytest
from playwright.sync_api import expect

from .viewports import PHONE

pytestmark = pytest.mark.browser

ARTICLE_EN = "/en/fastest-llm-api/"
ARTICLE_ES = "/es/api-llm-mas-rapida/"


def make_glm_stale(days=4):
    """GLM-5.3's benchmark, treated as live data (not demo) and last measured `days` ago."""
    from django.db import connection, transaction

    from benchmarks.cache import bump_data_generation
    from benchmarks.models import Snapshot, Source

    source = Source.objects.get(title_en="GLM-5.3 providers")
    Source.objects.filter(pk=source.pk).update(is_demo=False)
    measured = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=days)
    # Staging the past: published snapshots are immutable, so the history triggers are skipped for
    # this one transaction (as tests.refresh_support.staged_history does inside a test transaction).
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")
        Snapshot.objects.filter(source=source).update(measured_at=measured)
    bump_data_generation()
    return measured


def test_a_stale_pick_says_when_it_was_last_measured(page):
    measured = make_glm_stale()
    page.goto(ARTICLE_EN)
    row = page.locator("table.picks-table tbody tr", has_text="Fastest · GLM-5.3").first
    expect(row.locator("td").nth(0)).to_have_text("Baseten (Fast)")
    day_month = f"{measured.day} {measured.strftime('%b')}"
    expect(row.locator(".stale-pick")).to_have_text(f"last measured {day_month}; stale")
    expect(row).not_to_contain_text("Not measured yet")

    page.goto(ARTICLE_ES)
    row = page.locator("table.picks-table tbody tr").first
    months = ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"]
    expect(row.locator(".stale-pick")).to_have_text(
        f"última medición el {measured.day} {months[measured.month - 1]}; desfasado"
    )
    assert page.console_errors == []


def test_footnote_markers_side_by_side_are_visibly_apart(page):
    page.goto(ARTICLE_EN)
    pair = page.locator("sup.fn", has=page.locator("a:nth-child(2)")).first
    expect(pair).to_be_visible()
    links = pair.locator("a")
    first, second = links.nth(0).bounding_box(), links.nth(1).bounding_box()
    gap = second["x"] - (first["x"] + first["width"])
    assert gap >= 3, f"markers {links.all_inner_texts()} only {gap:.1f}px apart"
    # spacing comes from styling: the text holds the numbers and nothing else
    assert pair.evaluate("el => el.textContent") == "".join(links.all_inner_texts())


def test_provenance_opens_by_keyboard_with_source_date_in_words_and_method(page):
    page.goto(ARTICLE_EN)
    table = page.locator(".table-scroll", has=page.locator("table.provider-table")).first
    table.focus()
    for _step in range(6):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('prov-toggle')"):
            break
    else:
        pytest.fail("no provenance control reachable with Tab inside the first provider table")
    toggle = page.locator(".prov-toggle:focus")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    panel = page.locator(".prov-toggle:focus + .prov-panel")
    expect(panel).to_be_hidden()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Source: Artificial Analysis · GLM-5.3 providers")
    # The demo's snapshot is two hours old: on the 1st of a month just after midnight it is last month's.
    from django.utils import timezone

    from benchmarks.models import Snapshot

    measured = timezone.localtime(
        Snapshot.objects.filter(source__title_en="GLM-5.3 providers", status="published").latest("measured_at").measured_at
    )
    expect(panel).to_contain_text(f"Snapshot of {measured.strftime('%b')}")
    expect(panel).to_contain_text(str(measured.year))
    expect(panel).to_contain_text("Method:")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(toggle).to_be_focused()

    page.goto(ARTICLE_ES)
    toggle = page.locator("table.provider-table .prov-toggle").first
    toggle.focus()
    page.keyboard.press("Space")
    panel = page.locator("table.provider-table .prov-panel").first
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Instantánea del")
    expect(panel).to_contain_text(" de ")  # "30 de noviembre de 2026"
    expect(panel).to_contain_text("Método:")
    assert page.console_errors == []


def leaderboard_page():
    from articles.demo import ensure_article
    from articles.models import HomePage
    from benchmarks.models import LanguageModel

    models = [{"model": m.pk, "source": None} for m in LanguageModel.objects.order_by("name")[:3]]
    value = {"metric": "output_speed_median", "source": None, "models": models, "window_hours": None, "limit": 12,
             "name_style": "full", "value_heading_en": "Avg tokens/s (24h)", "value_heading_es": "",
             "caption_en": "", "caption_es": ""}
    ensure_article(
        HomePage.objects.get(), "leaderboard-phone", title={"en": "Leaderboard", "es": "Clasificación"},
        slug={"en": "leaderboard-phone", "es": "clasificacion-movil"},
        body={"en": [{"type": "leaderboard", "value": value}], "es": [{"type": "leaderboard", "value": value}]},
    )
    return "/en/leaderboard-phone/"


def test_tables_at_375_px(open_page):
    url = leaderboard_page()
    page = open_page(viewport=PHONE)
    page.goto(ARTICLE_EN)
    # every scrolling table says it scrolls
    regions = page.locator(".table-scroll")
    assert regions.count() >= 5
    for region in regions.all():
        hint = region.locator("xpath=preceding-sibling::*[1]")
        expect(hint).to_have_class("swipe-hint")
        if region.is_visible():  # a chart's data table is shown when its reader opens it
            expect(hint).to_be_visible()
    # the provider column stays in view while the figures scroll under it
    region = page.locator(".table-scroll", has=page.locator("table.provider-table")).first
    first_cell = region.locator("tbody tr").first.locator("th")
    before = first_cell.bounding_box()
    scrolled = region.evaluate("el => { el.scrollLeft = el.scrollWidth; return el.scrollLeft; }")
    assert scrolled > 50, "the provider table should be wider than a 375 px screen"
    page.wait_for_timeout(100)
    after = first_cell.bounding_box()
    assert abs(after["x"] - before["x"]) < 1, (before, after)
    figure = region.locator("tbody tr").first.locator("td").first.bounding_box()
    assert figure["x"] < before["x"] + before["width"], "the figures should scroll under the provider column"

    # the leaderboard's value column is on screen without scrolling
    page.goto(url)
    heading = page.locator("table.leaderboard thead th").last
    expect(heading).to_have_text("Avg tokens/s (24h)")
    box = heading.bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"], box
    cell = page.locator("table.leaderboard tbody tr").first.locator("td.num")
    cell_box = cell.bounding_box()
    assert cell_box["x"] + cell_box["width"] <= PHONE["width"], cell_box
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.console_errors == []
