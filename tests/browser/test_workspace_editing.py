"""Working in the translation workspace: rich text edited as text with its figures as labelled chips,
unsaved text kept across filters, any page reachable from Translation status."""

import re

import pytest
from playwright.sync_api import expect

from .admin_steps import log_in, member, save_translation, segment_with_english, visit, workspace_url

pytestmark = pytest.mark.browser

COUNT_PARAGRAPH_EN = "hosts measured, one stands well"


def demo_article():
    from articles.models import ArticlePage

    return ArticlePage.objects.get(slug_en="fastest-llm-api")


def test_rich_text_is_edited_as_text_with_figures_as_labelled_chips(open_page, django_user_model, screenshot):
    from editorial.models import DraftSegment
    from editorial.roles import TRANSLATORS

    article = demo_article()
    member(django_user_model, "traductora", TRANSLATORS)
    translator = open_page()
    log_in(translator, "traductora")
    visit(translator, workspace_url(article))
    row = segment_with_english(translator, COUNT_PARAGRAPH_EN)
    expect(row).to_have_count(1)

    # Both columns read as text: no <p>, no bare {1}; each figure is a chip naming what it shows.
    english = row.locator("td.workspace-english .workspace-source")
    expect(english.locator(".token-chip")).to_have_count(2)
    expect(english.locator(".token-chip").nth(0)).to_contain_text("hosts measured")
    expect(english.locator(".token-chip").nth(1)).to_contain_text("leader")
    assert "<p>" not in english.inner_text() and "{1}" not in english.inner_text()
    editor = row.locator(".workspace-rich")
    expect(editor).to_be_visible()
    expect(row.locator("textarea")).to_be_hidden()
    expect(editor.locator(".token-chip")).to_have_count(2)
    expect(editor.locator(".token-chip").nth(0)).to_contain_text("hosts measured")
    expect(editor.locator(".token-chip[contenteditable=false]")).to_have_count(2)
    assert "<p>" not in editor.inner_text() and "{" not in editor.inner_text()
    assert editor.inner_text().startswith("Se miden")
    # The help text is text: its <a id=…> example is not a link.
    help_text = row.locator(".workspace-token-help")
    expect(help_text).to_contain_text("<a id=…>")
    expect(help_text.locator("a")).to_have_count(0)
    row.scroll_into_view_if_needed()
    screenshot(translator, "workspace-rich-text-chips")

    # Typing and bold: the form posts the stored token form, the server restores the figures.
    editor.click()
    translator.keyboard.press("Control+End")
    translator.keyboard.type(" Hoy.")
    translator.keyboard.press("Shift+ArrowLeft")
    translator.keyboard.press("Shift+ArrowLeft")
    translator.keyboard.press("Shift+ArrowLeft")
    translator.keyboard.press("Shift+ArrowLeft")
    row.get_by_role("button", name="Bold").click()
    value = row.locator("textarea").input_value()
    assert re.match(r"<p>Se miden \{1\} proveedores .*\{2\}.*<b>Hoy.</b></p>$", value), value
    save_translation(translator)
    stored = DraftSegment.objects.get(text__contains="<b>Hoy.</b>").text
    assert stored.count('embedtype="dataref"') == 2 and 'compare="count"' in stored
    expect(segment_with_english(translator, COUNT_PARAGRAPH_EN).locator(".workspace-rich b")).to_have_text("Hoy.")

    # Markup stays at hand; the server still checks it: a figure removed there is refused.
    row = segment_with_english(translator, COUNT_PARAGRAPH_EN)
    row.get_by_role("button", name="Edit markup").click()
    markup = row.locator("textarea")
    expect(markup).to_be_visible()
    markup.fill(markup.input_value().replace("{1}", ""))
    save_translation(translator, message="Nothing was saved")
    expect(segment_with_english(translator, COUNT_PARAGRAPH_EN).locator(".error-message")).to_contain_text("{1}")
    # The refused form answers 400, which the browser reports; nothing else may go wrong.
    assert [error for error in translator.console_errors if "status of 400" not in error] == []


def test_a_translator_fixes_a_typo_on_an_up_to_date_page_from_translation_status(open_page, django_user_model):
    from editorial.models import DraftSegment
    from editorial.roles import TRANSLATORS

    article = demo_article()
    member(django_user_model, "traductora", TRANSLATORS)
    translator = open_page()
    log_in(translator, "traductora")
    # From the menu, not a typed URL: the fully translated article is listed under "Up to date".
    translator.get_by_role("link", name="Translation status").first.click()
    translator.locator("a[data-filter='up_to_date']").click()
    expect(translator).to_have_url(re.compile(r"\?status=up_to_date$"))
    row = translator.locator(f"tr[data-object='articlepage:{article.pk}']")
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("data-missing", "0")
    row.get_by_role("link", name="Translate").click()
    expect(translator).to_have_url(re.compile(re.escape(workspace_url(article)) + "$"))

    title = translator.locator("tr.workspace-segment[data-key='title'] textarea")
    fixed = title.input_value().replace("más rápida", "más veloz")
    title.fill(fixed)
    save_translation(translator, "Save and submit for review", "submitted for review")
    assert DraftSegment.objects.get(key="title").text == fixed
    assert translator.console_errors == []


def test_unsaved_text_is_kept_across_filters(open_page, django_user_model):
    from editorial.models import TranslationDraft
    from editorial.roles import TRANSLATORS

    article = demo_article()
    member(django_user_model, "traductora", TRANSLATORS)
    translator = open_page()
    log_in(translator, "traductora")
    visit(translator, workspace_url(article))
    title = translator.locator("tr.workspace-segment[data-key='title']")
    title.locator("textarea").fill("Un título que aún no se ha guardado")
    paragraph = segment_with_english(translator, COUNT_PARAGRAPH_EN)
    paragraph.locator(".workspace-rich").click()
    translator.keyboard.press("Control+End")
    translator.keyboard.type(" Sin guardar.")

    # Another filter, where neither segment shows, then back: the typed text is there, marked unsaved.
    translator.locator("a[data-filter='missing']").click()
    expect(translator).to_have_url(re.compile(r"\?status=missing$"))
    expect(translator.locator(".workspace-unsaved-elsewhere")).to_contain_text("2")
    translator.locator("a[data-filter='all']").click()
    expect(title.locator("textarea")).to_have_value("Un título que aún no se ha guardado")
    expect(title.locator(".workspace-unsaved")).to_be_visible()
    expect(segment_with_english(translator, COUNT_PARAGRAPH_EN).locator(".workspace-rich")).to_contain_text("Sin guardar.")
    expect(segment_with_english(translator, COUNT_PARAGRAPH_EN).locator(".workspace-rich .token-chip")).to_have_count(2)
    assert not TranslationDraft.objects.exists()

    # Saved, it is no longer kept apart: the next visit shows the saved text, nothing marked unsaved.
    save_translation(translator)
    expect(title.locator("textarea")).to_have_value("Un título que aún no se ha guardado")
    expect(translator.locator(".workspace-unsaved")).to_have_count(0)
    translator.locator("a[data-filter='missing']").click()
    expect(translator.locator(".workspace-unsaved-elsewhere")).to_have_count(0)
    assert translator.console_errors == []


def test_the_all_view_is_grouped_under_the_pages_headings_with_jump_links_and_a_sticky_save_bar(
    open_page, django_user_model, screenshot
):
    from editorial.roles import TRANSLATORS

    article = demo_article()
    headings = [child.value["text"] for child in article.body_en if child.block_type == "heading"]
    member(django_user_model, "traductora", TRANSLATORS)
    translator = open_page()
    log_in(translator, "traductora")
    visit(translator, workspace_url(article))

    jump = translator.locator("nav.workspace-jump a")
    expect(jump).to_have_count(len(headings) + 1)
    assert jump.all_inner_texts()[1:] == headings
    expect(translator.locator("tr.workspace-group-heading")).to_have_count(len(headings) + 1)
    # Every segment sits in one section, in page order.
    expect(translator.locator("tbody.workspace-group tr.workspace-segment")).to_have_count(
        translator.locator("tr.workspace-segment").count()
    )
    jump.nth(len(headings)).click()
    last = translator.locator("tr.workspace-group-heading").last
    expect(last).to_be_in_viewport()
    expect(translator.get_by_role("button", name="Save draft")).to_be_in_viewport()
    screenshot(translator, "workspace-sections")
    assert translator.console_errors == []


def test_english_fallback_text_on_the_spanish_page_is_marked_lang_en(open_page):
    article = demo_article()
    # The demo's source titles are translated; one a translator has not reached yet falls back.
    untranslated = article.page_sources.order_by("sort_order").first().source
    untranslated.title_es = ""
    untranslated.save()
    from benchmarks.cache import invalidate_after_commit

    invalidate_after_commit()  # as the snippet editor's after-edit hook does (benchmarks/admin/menu.py)
    reader = open_page()
    reader.goto(f"/es/{article.slug_es}/")
    expect(reader.locator("html")).to_have_attribute("lang", "es")
    titles = reader.locator("section.sources li > a > span")
    expect(titles.first).to_be_visible()
    marked = dict(titles.evaluate_all("spans => spans.map(span => [span.textContent, span.lang])"))
    assert marked.pop(untranslated.title_en, None) == "en", marked
    # Translated titles are Spanish text: not marked.
    assert marked and set(marked.values()) == {""}
    # The page's own Spanish text is not marked.
    expect(reader.locator("h1")).not_to_have_attribute("lang", "en")
    assert reader.console_errors == []
