"""The page editor's form has no "Copy content from: <language>" buttons: the Spanish body is derived
from the English one, so copying one language over the other could only destroy the English."""

import pytest
from playwright.sync_api import expect

from .admin_steps import BODY_PANEL, log_in, member, visit

pytestmark = pytest.mark.browser


def test_article_form_has_no_copy_buttons_and_the_copy_address_changes_nothing(open_page, django_user_model):
    from articles.models import ArticlePage
    from editorial.roles import EDITORS

    article = ArticlePage.objects.get(slug_en="fastest-llm-api")
    body_en, body_es = article.body_en.get_prep_value(), article.body_es.get_prep_value()
    member(django_user_model, "editora", EDITORS)
    page = open_page()
    log_in(page, "editora")

    visit(page, f"/admin/pages/{article.pk}/edit/")
    expect(page.locator(BODY_PANEL)).to_be_visible()
    expect(page.get_by_text("Copy content from")).to_have_count(0)
    expect(page.locator(".translation-field-copy")).to_have_count(0)

    # What the package's button posted: the Spanish body's fields, to be rendered as the English body.
    response = page.request.post(
        f"/admin/pages/{article.pk}/edit/copy_translation_content/",
        headers={"X-Requested-With": "XMLHttpRequest"},
        form={"origin_field_name": "body_es", "target_field_name": "body_en", "serializedOriginField": "[]"},
    )
    assert response.status in (403, 404), response.status
    article.refresh_from_db()
    assert article.body_en.get_prep_value() == body_en
    assert article.body_es.get_prep_value() == body_es
