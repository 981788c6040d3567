"""An editor composes the chatbot provider list from parts in the admin, and saves a draft whose data
blocks are still empty."""

import re

import pytest
from playwright.sync_api import expect

from benchmarks.demo_data import RUN_SOURCE

from .admin_steps import SAVE_TIMEOUT_MS, log_in, member, open_actions_menu, submit, visit

pytestmark = pytest.mark.browser

PARTS = [
    # (figure label in the menu, words before, words after, unit label)
    # our probe's median tokens/s, not Artificial Analysis' output speed (the run has only the former)
    ("Tokens per second median", "", "tokens per second median", "Number only"),
    ("Tokens per second p95 floor", "", "tokens per second p95 floor", "Number only"),
    ("Time to first token p95", "time to first token p95", "", None),
    ("End-to-end p99", "end-to-end p99", "", None),
]


def new_article(page, home, title):
    visit(page, f"/admin/pages/{home.pk}/add_subpage/")
    page.locator(f"a[href$='/pages/add/articles/articlepage/{home.pk}/']").click()
    page.locator("#id_title_en").fill(title)
    page.locator("#id_title_en").press("Tab")


def add_block(page, label):
    body = page.locator("#panel-child-content-body_en-content")
    body.get_by_role("button", name="Insert a block").last.click()
    # The picker just opened: an earlier one may still be in the page while it closes (seen once as
    # two "Bar chart" options), so take the visible option of the newest picker.
    page.get_by_role("option", name=label, exact=True).locator("visible=true").last.click()


def choose(page, prefix, button, search, link):
    page.locator(f"#{prefix}-chooser").get_by_role("button", name=button).click()
    modal = page.locator(".modal")
    modal.get_by_placeholder("Search").fill(search)
    modal.get_by_role("link", name=link, exact=True).click()
    expect(modal).to_be_hidden()


def test_editor_composes_the_chatbot_list_from_parts(open_page, django_user_model):
    from articles.models import ArticlePage, HomePage
    from benchmarks.models import Measurement, Source
    from editorial.roles import EDITORS

    home = HomePage.objects.get()
    member(django_user_model, "compositora", EDITORS)
    page = open_page()
    log_in(page, "compositora")
    new_article(page, home, "Hosts for a chatbot")
    add_block(page, "Provider-by-provider list")

    choose(page, "body_en-0-value-model", "Choose language model", "flash", "GLM-5.3-Flash")
    run = Source.objects.get(kind=Source.Kind.FIRST_PARTY, url=RUN_SOURCE[3])
    choose(page, "body_en-0-value-source", "Choose source", "provider run", str(run))
    page.select_option("#body_en-0-value-pattern", label="Composed from the parts below")

    parts = page.locator("#panel-child-content-body_en-content [data-contentpath='parts']")
    for n, (figure, before, after, unit) in enumerate(PARTS):
        parts.get_by_role("button", name="Add").last.click()
        prefix = f"#body_en-0-value-parts-{n}-value"
        page.select_option(f"{prefix}-field", label=figure)
        if before:
            page.locator(f"{prefix}-before_en").fill(before)
        if after:
            page.locator(f"{prefix}-after_en").fill(after)
        if unit:
            page.select_option(f"{prefix}-unit", label=unit)
    page.select_option("#body_en-0-value-order_by", label="Time to first token p95")
    page.select_option("#body_en-0-value-order", label="Ascending (smallest first)")

    submit(page, page.get_by_role("button", name="Save draft"), "created")
    submit(page, open_actions_menu(page).get_by_role("button", name="Publish", exact=True), "has been published")

    article = ArticlePage.objects.get(slug_en="hosts-for-a-chatbot")
    stored = article.body_en[0].value
    assert [part["field"] for part in stored["parts"]] == ["tps_median", "tps_p95", "ttft_p95", "e2e_p99"]

    # The visitor's list follows TTFT p95, smallest first, with the composed words.
    ttft = dict(
        Measurement.objects.filter(snapshot__source=run, metric="ttft_p95").values_list("endpoint__provider__name", "value")
    )
    visitor = open_page()
    visitor.goto("/en/hosts-for-a-chatbot/")
    items = visitor.locator("ul.provider-list li")
    expect(items).to_have_count(len(ttft))
    first = min(ttft, key=ttft.get)
    expect(items.first).to_contain_text(first)
    expect(items.first).to_contain_text(re.compile(
        r"^\S.*: [\d.,]+ tokens per second median, [\d.,]+ tokens per second p95 floor, "
        r"time to first token p95 [\d.,]+ (ms|seconds), end-to-end p99 [\d.,]+ (ms|seconds)\.$"
    ), use_inner_text=True)  # what a reader sees: each figure's ⓘ trail stays hidden until asked for
    assert visitor.console_errors == [], visitor.console_errors


def test_a_draft_with_empty_data_blocks_saves_and_publishing_names_what_is_missing(open_page, django_user_model):
    from articles.models import ArticlePage, HomePage
    from editorial.roles import EDITORS

    home = HomePage.objects.get()
    member(django_user_model, "borrador", EDITORS)
    page = open_page()
    log_in(page, "borrador")
    new_article(page, home, "Work in progress")
    for label in ("Picks table", "Provider table", "Bar chart", "Provider cards", "Provider-by-provider list",
                  "API identifiers", "Leaderboard"):
        add_block(page, label)

    submit(page, page.get_by_role("button", name="Save draft"), "created")
    draft = ArticlePage.objects.get(slug_en="work-in-progress")
    assert not draft.live
    assert len(draft.get_latest_revision_as_object().body_en) == 7

    page.get_by_role("button", name="Toggle preview").click()
    preview = page.frame_locator("#w-preview-iframe")
    expect(preview.locator(".block-incomplete")).to_have_count(7, timeout=SAVE_TIMEOUT_MS)

    open_actions_menu(page).get_by_role("button", name="Publish", exact=True).click(no_wait_after=True)
    expect(page.locator(".messages")).to_contain_text("could not be", timeout=SAVE_TIMEOUT_MS)
    expect(page.locator("#panel-child-content-body_en-content .error-message").first).to_contain_text("required")
    assert not ArticlePage.objects.get(slug_en="work-in-progress").live
