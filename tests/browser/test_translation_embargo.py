"""English an editor has saved but not published stays unpublished in both languages: the translator
sees it only as a marked preview, and the Spanish approved for it goes live with that English."""

import pytest
from playwright.sync_api import expect

from .admin_steps import (
    BODY_PANEL,
    input_with_value,
    log_in,
    member,
    publish,
    save_translation,
    segment,
    submit,
    visit,
    workspace_url,
)

pytestmark = pytest.mark.browser

ARTICLE_EN = "/en/fastest-llm-api/"
ARTICLE_ES = "/es/api-llm-mas-rapida/"
HEADING_EN = "GLM-5.3 output speed"
CLAIM_EN = "EMBARGO-E2 unpublished claim."
CLAIM_ES = "EMBARGO-ES-E2 afirmación no publicada."
DRAFT_MARK = "Draft English, not published yet"


def test_spanish_for_unpublished_english_waits_for_that_english(open_page, django_user_model):
    from articles.models import ArticlePage
    from editorial.roles import EDITORS, TRANSLATORS

    article = ArticlePage.objects.get(slug_en="fastest-llm-api")
    heading = next(child.id for child in article.body_en if child.block_type == "heading"
                   and child.value.get("text") == HEADING_EN)
    key = f"body/{heading}/text"
    member(django_user_model, "editora", EDITORS)
    member(django_user_model, "traductora", TRANSLATORS)

    # The editor saves an unpublished English draft.
    editor = open_page()
    log_in(editor, "editora")
    visit(editor, f"/admin/pages/{article.pk}/edit/")
    input_with_value(editor, BODY_PANEL, HEADING_EN).fill(CLAIM_EN)
    submit(editor, editor.get_by_role("button", name="Save draft"), "has been updated")

    # The translator works on the live English; the draft's is a marked preview.
    translator = open_page()
    log_in(translator, "traductora")
    visit(translator, workspace_url(article))
    expect(segment(translator, key).locator(".workspace-source")).to_have_text(HEADING_EN)
    expect(translator.get_by_text(CLAIM_EN)).to_have_count(0)
    translator.get_by_role("link", name="Preview the draft English").click()
    row = segment(translator, key)
    expect(row.locator(".workspace-source")).to_have_text(CLAIM_EN)
    expect(row.locator(".workspace-unpublished")).to_have_text(DRAFT_MARK)
    expect(translator.locator(".workspace-english-draft")).to_contain_text(DRAFT_MARK)
    row.locator("textarea").fill(CLAIM_ES)
    save_translation(translator, "Save and submit for review", "submitted for review")

    # The editor approves it with "Publish it now".
    visit(editor, workspace_url(article, "review/"))
    expect(editor.locator(f"tr.review-segment[data-key='{key}']")).to_contain_text(DRAFT_MARK)
    expect(editor.locator("input[name=mode][value=publish]")).to_be_checked()
    submit(editor, editor.get_by_role("button", name="Approve", exact=True), "approved and published")

    reader = open_page()
    reader.goto(ARTICLE_EN)
    expect(reader.locator("main")).not_to_contain_text(CLAIM_EN)
    reader.goto(ARTICLE_ES)
    expect(reader.locator("main")).not_to_contain_text(CLAIM_ES)

    # Once the editor publishes the English, both languages have it.
    visit(editor, f"/admin/pages/{article.pk}/edit/")
    publish(editor)
    reader.goto(ARTICLE_EN)
    expect(reader.locator("main")).to_contain_text(CLAIM_EN)
    reader.goto(ARTICLE_ES)
    expect(reader.locator("main")).to_contain_text(CLAIM_ES)
    assert reader.console_errors == [] and editor.console_errors == [] and translator.console_errors == []
