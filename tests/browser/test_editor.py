"""An editor builds an article with a provider table in the admin, translates and approves its Spanish
text in the translation workspace, previews both languages and publishes."""

import re

import pytest
from playwright.sync_api import expect

from .admin_steps import (
    log_in,
    member,
    open_actions_menu,
    save_translation,
    segment,
    segment_with_english,
    spanish_markup,
    submit,
    visit,
    workspace_url,
)

pytestmark = pytest.mark.browser

TITLE = "Flash model hosts, side by side"
SLUG = "flash-model-hosts-side-by-side"
TITLE_ES = "Proveedores del modelo Flash, uno al lado del otro"
SLUG_ES = "proveedores-del-modelo-flash-uno-al-lado-del-otro"
# The table's caption (read by screen readers) is the body's only text: without it the body would
# have nothing to translate, and an article whose Spanish body has no text has no Spanish version.
CAPTION = "Hosts of GLM-5.3-Flash by output speed"
CAPTION_ES = "Proveedores de GLM-5.3-Flash por velocidad de salida"
# GLM-5.3-Flash's fastest host in the demo data (the demo article's summary says so too).
LEADER = "CoreWeave"


def test_editor_adds_a_provider_table_previews_both_languages_and_publishes(open_page, django_user_model):
    from articles.models import ArticlePage, HomePage
    from editorial.roles import EDITORS

    home = HomePage.objects.get()
    member(django_user_model, "editora", EDITORS)
    page = open_page()
    log_in(page, "editora")

    # Pages → the home page → add child page → Article.
    visit(page, f"/admin/pages/{home.pk}/add_subpage/")
    page.locator(f"a[href$='/pages/add/articles/articlepage/{home.pk}/']").click()
    title = page.locator("#id_title_en")
    title.fill(TITLE)
    title.press("Tab")  # leaving the title fills in the slug
    expect(page.locator("#id_slug_en")).to_have_value(SLUG)

    # Body → "+" → Provider table.
    body = page.locator("#panel-child-content-body_en-content")
    body.get_by_role("button", name="Insert a block").first.click()
    page.get_by_role("option", name="Provider table", exact=True).click()

    # Choose the model in the chooser modal, searching for it.
    page.locator("#body_en-0-value-model-chooser").get_by_role("button", name="Choose language model").click()
    modal = page.locator(".modal")
    modal.get_by_placeholder("Search").fill("flash")
    expect(modal.get_by_role("link", name="GLM-5.3", exact=True)).to_have_count(0)
    modal.get_by_role("link", name="GLM-5.3-Flash", exact=True).click()
    expect(modal).to_be_hidden()
    expect(page.locator("#body_en-0-value-model-title")).to_have_text("GLM-5.3-Flash")

    # Columns: output speed with its gap to the leader, then prices; sorted by output speed.
    page.select_option("#body_en-0-value-columns-0-value-field", label="Output speed")
    page.check("#body_en-0-value-columns-0-value-difference_to_leader")
    body.locator("[data-contentpath='columns']").get_by_role("button", name="Add").last.click()
    page.select_option("#body_en-0-value-columns-1-value-field", label="Price in / out per 1M")
    page.select_option("#body_en-0-value-sort_metric", label="Output speed")
    # The caption is one line of rich text (a claim in it can be a checked statement): typed into Draftail,
    # which writes its hidden input a moment after the last keystroke.
    body.locator("[data-contentpath='caption'] [contenteditable='true']").click()
    page.keyboard.type(CAPTION)
    expect(page.locator("#body_en-0-value-caption")).to_have_value(re.compile(re.escape(CAPTION)))

    submit(page, page.get_by_role("button", name="Save draft"), f"'{TITLE}' created")
    expect(page).to_have_url(re.compile(r"/admin/pages/\d+/edit/$"))

    # Spanish: title, slug and caption, written in the translation workspace and approved there; the
    # page is not live, so the approved text waits for its first publication.
    visit(page, workspace_url(ArticlePage.objects.get(slug_en=SLUG)))
    segment(page, "title").locator("textarea").fill(TITLE_ES)
    segment(page, "slug").locator("textarea").fill(SLUG_ES)
    spanish_markup(segment_with_english(page, CAPTION)).fill(f"<p>{CAPTION_ES}</p>")
    save_translation(page, "Save and submit for review", "submitted for review")
    page.get_by_role("link", name="Review this translation").click()
    page.get_by_label("Only store it").check()
    submit(page, page.get_by_role("button", name="Approve", exact=True), "goes live with the next publication")
    visit(page, f"/admin/pages/{ArticlePage.objects.get(slug_en=SLUG).pk}/edit/")

    # Preview panel: English first, then the Spanish preview mode.
    page.get_by_role("button", name="Toggle preview").click()
    preview = page.frame_locator("#w-preview-iframe")
    expect(preview.locator("html")).to_have_attribute("lang", "en")
    expect(preview.locator("h1")).to_have_text(TITLE)
    header = preview.locator("table.provider-table thead")
    for text in ("Output speed (tokens/s)", "Δ vs fastest", "Price in / out per 1M"):
        expect(header).to_contain_text(text)
    expect(preview.locator("table.provider-table tbody tr").first.locator("th")).to_contain_text(LEADER)

    page.select_option("#id_preview_mode", "es")
    expect(preview.locator("html")).to_have_attribute("lang", "es")
    expect(preview.locator("h1")).to_have_text(TITLE_ES)
    expect(preview.locator("table.provider-table thead")).to_contain_text("Velocidad de salida (tokens/s)")
    assert not ArticlePage.objects.get(slug_en=SLUG).live, "previewing must not publish"

    submit(
        page, open_actions_menu(page).get_by_role("button", name="Publish", exact=True), "has been published"
    )

    published = ArticlePage.objects.get(slug_en=SLUG)
    assert published.live and published.slug_es == SLUG_ES
    table = published.body_en[0]
    assert table.block_type == "provider_table" and table.value["model"].name == "GLM-5.3-Flash"
    assert [column["field"] for column in table.value["columns"]] == ["output_speed_median", "price"]

    # A visitor (no login) sees the table on the public pages.
    visitor = open_page()
    visitor.goto(f"/en/{SLUG}/")
    expect(visitor.locator("h1")).to_have_text(TITLE)
    rows = visitor.locator(".table-scroll table.provider-table tbody tr")
    assert rows.count() >= 5
    expect(rows.first.locator("th")).to_contain_text(LEADER)
    # The leader's gap to itself, as a reader sees it (the cell's ⓘ trail stays hidden until asked for).
    expect(rows.first.locator("td").nth(1)).to_have_text("0.0", use_inner_text=True)
    expect(rows.first.locator("td.price")).to_contain_text("$")
    visitor.goto(f"/es/{SLUG_ES}/")
    expect(visitor.locator("h1")).to_have_text(TITLE_ES)
    expect(visitor.locator("table.provider-table thead")).to_contain_text("Δ frente a")
    expect(visitor.locator("table.provider-table caption")).to_have_text(CAPTION_ES)
    assert visitor.console_errors == [], visitor.console_errors
