"""An editor marks words as a checked statement from the rich-text toolbar (issue 24): selects them,
picks the condition from the menu, and the saved draft stores the words with their condition."""

import pytest
from playwright.sync_api import expect

from .admin_steps import BODY_PANEL, log_in, member, submit, visit

pytestmark = pytest.mark.browser

BUTTON = "Checked statement (a sentence about the data, checked against it)"


def test_an_editor_marks_a_sentence_as_a_checked_statement(open_page, django_user_model):
    from articles.models import ArticlePage
    from articles.statements.markup import statements_in_html
    from benchmarks.models import Endpoint
    from editorial.roles import EDITORS

    article = ArticlePage.objects.get(slug_en="fastest-llm-api")
    member(django_user_model, "editora", EDITORS)
    page = open_page()
    log_in(page, "editora")
    visit(page, f"/admin/pages/{article.pk}/edit/")

    # The first paragraph: select its first words.
    editor = page.locator(f"{BODY_PANEL} .public-DraftEditor-content", has_text="Every speed figure").first
    editor.click()
    page.keyboard.press("Control+Home")
    for _ in range(len("Every speed figure")):
        page.keyboard.press("Shift+ArrowRight")
    page.get_by_role("button", name=BUTTON).first.click()

    modal = page.locator(".modal form.statement-chooser")
    expect(modal).to_be_visible()
    modal.locator("select[name=kind]").select_option("leads")
    fast = Endpoint.objects.get(provider__slug="baseten", tier="Fast", model__slug="glm-5-3")
    modal.locator("select[name=host]").select_option(f"{fast.provider_id}:Fast")
    modal.locator("select[name=metric]").select_option("output_speed_median")
    modal.locator("select[name=models]").select_option(str(fast.model_id))
    modal.get_by_role("button", name="Check the statement").click()
    expect(page.locator(".modal form.statement-chooser")).to_have_count(0)
    expect(editor.locator(".statement-token").first).to_have_text("Every speed figure")
    expect(editor.locator(".statement-token").first).to_have_attribute(
        "title", "Baseten (Fast) leads Output speed on all of GLM-5.3")

    # Draftail writes the paragraph's hidden input a moment after the change: wait for both entities.
    page.wait_for_function(
        """() => [...document.querySelectorAll('input[type=hidden]')].some(
               input => input.value.startsWith('Every speed figure') === false
                        && input.value.includes('Every speed figure')
                        && (input.value.match(/"STATEMENT"/g) || []).length >= 2)"""
    )
    submit(page, page.get_by_role("button", name="Save draft"), "has been updated")
    article.refresh_from_db()
    draft = article.get_latest_revision_as_object()
    first = next(child for child in draft.body_en if child.block_type == "paragraph")
    (claim, words), _fireworks = statements_in_html(first.value.source)
    assert words == "Every speed figure"
    condition, = claim.conditions
    assert (condition.kind, condition.host.provider_id, condition.host.tier, condition.models) == (
        "leads", fast.provider_id, "Fast", (fast.model_id,))
    assert page.console_errors == []
    # A draft, not a publication: the live page's paragraph is as it was.
    live = ArticlePage.objects.get(pk=article.pk)
    live_first = next(child for child in live.body_en if child.block_type == "paragraph")
    assert "Every speed figure" not in [words for _claim, words in statements_in_html(live_first.value.source)]
