"""A translator changes Spanish text and submits it; only an editor's approval puts it on /es/."""

import re

import pytest
from playwright.sync_api import expect

from .admin_steps import (
    input_with_value,
    log_in,
    member,
    open_actions_menu,
    show_language_fields,
    submit,
    visit,
)

pytestmark = pytest.mark.browser

ARTICLE_EN = "/en/fastest-llm-api/"
ARTICLE_ES = "/es/api-llm-mas-rapida/"
TITLE_EN = "Fastest LLM API: output speed per model, not per vendor"
TITLE_ES = "La API de LLM más rápida: velocidad de salida por modelo, no por proveedor"
NEW_TITLE_ES = "La API de LLM más veloz, modelo a modelo"
CARD_EN = "Leads two of the three current models, both times through its premium Fast tier."
CARD_ES = "Lidera dos de los tres modelos actuales, en ambos casos con su nivel prémium Fast."
NEW_CARD_ES = "Primero en dos de los tres modelos actuales, siempre con su nivel Fast."


def first_card_summary(page):
    return page.locator("li.provider-card").first.locator(".card-summary")


def test_translator_submits_spanish_text_and_an_editor_approves_it(open_page, django_user_model):
    from articles.models import ArticlePage
    from editorial.roles import EDITORS, TRANSLATORS

    article = ArticlePage.objects.get(slug_en="fastest-llm-api")
    edit_url = f"/admin/pages/{article.pk}/edit/"
    member(django_user_model, "traductora", TRANSLATORS)
    member(django_user_model, "editora", EDITORS)

    translator = open_page()
    reader = open_page()
    log_in(translator, "traductora")
    visit(translator, edit_url)
    show_language_fields(translator, "es")
    translator.locator("#id_title_es").fill(NEW_TITLE_ES)
    input_with_value(translator, "#panel-child-content-body_es-content", CARD_ES).fill(NEW_CARD_ES)

    # No publish action is offered to a translator ...
    actions = open_actions_menu(translator)
    expect(translator.locator("button[name='action-publish']")).to_have_count(0)
    expect(actions.get_by_role("button", name=re.compile("^Publish"))).to_have_count(0)
    # ... and a hand-made publish request from their session only saves a draft.
    translator.evaluate(
        """() => document.getElementById('page-edit-form').append(Object.assign(
             document.createElement('input'), {type: 'hidden', name: 'action-publish', value: 'action-publish'}))"""
    )
    submit(translator, translator.get_by_role("button", name="Save draft"), "has been updated")
    reader.goto(ARTICLE_ES)
    expect(reader.locator("h1")).to_have_text(TITLE_ES)
    expect(first_card_summary(reader)).to_contain_text(CARD_ES)

    # The saved draft goes to the Spanish review workflow.
    expect(translator.locator("#id_title_es")).to_have_value(NEW_TITLE_ES)
    submit(
        translator,
        open_actions_menu(translator).get_by_role("button", name=re.compile("Submit to Spanish review")),
        "submitted for moderation",
    )
    article.refresh_from_db()
    assert article.workflow_in_progress and article.title_es == TITLE_ES

    # Submitted is not published: readers still get the old Spanish text.
    reader.reload()
    expect(reader.locator("h1")).to_have_text(TITLE_ES)
    expect(first_card_summary(reader)).to_contain_text(CARD_ES)

    # The editor approves from the same edit view; the Spanish page changes, the English one does not.
    editor = open_page()
    log_in(editor, "editora")
    visit(editor, edit_url)
    approve = open_actions_menu(editor).get_by_role("button", name="Approve and Publish", exact=True)
    submit(editor, approve, "has been updated")

    reader.goto(ARTICLE_ES)
    expect(reader.locator("h1")).to_have_text(NEW_TITLE_ES)
    expect(first_card_summary(reader)).to_contain_text(NEW_CARD_ES)
    reader.goto(ARTICLE_EN)
    expect(reader.locator("h1")).to_have_text(TITLE_EN)
    expect(first_card_summary(reader)).to_contain_text(CARD_EN)
    article.refresh_from_db()
    assert not article.workflow_in_progress
    assert reader.console_errors == [], reader.console_errors
