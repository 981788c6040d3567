"""A translator renames the Spanish address of an article; once the editor approves it, a reader who
follows an old link (the article or its data page) lands on the new address, in Chromium."""

import pytest
from playwright.sync_api import expect

from .admin_steps import log_in, member, save_translation, segment, submit, visit, workspace_url

pytestmark = pytest.mark.browser

OLD, NEW = "/es/api-llm-mas-rapida/", "/es/api-llm-mas-veloz/"


def test_an_approved_spanish_slug_change_redirects_old_links(open_page, django_user_model, site):
    from articles.models import ArticlePage
    from editorial.roles import EDITORS, TRANSLATORS

    article = ArticlePage.objects.get(slug_en="fastest-llm-api")
    member(django_user_model, "editora", EDITORS)
    member(django_user_model, "traductora", TRANSLATORS)

    translator = open_page()
    log_in(translator, "traductora")
    visit(translator, workspace_url(article))
    segment(translator, "slug").locator("textarea").fill("api-llm-mas-veloz")
    save_translation(translator, "Save and submit for review", "submitted for review")

    editor = open_page()
    log_in(editor, "editora")
    visit(editor, workspace_url(article, "review/"))
    expect(editor.locator(".review-address-changes")).to_contain_text(f"{OLD} → {NEW}")
    submit(editor, editor.get_by_role("button", name="Approve", exact=True), "approved and published")

    reader = open_page()
    for old, new in ((OLD, NEW), (OLD + "datos/", NEW + "datos/")):
        response = reader.goto(old)
        assert response.status == 200 and reader.url == site.url + new, (old, reader.url)
        assert response.request.redirected_from is not None
    expect(reader.locator("h1")).to_be_visible()
    assert reader.console_errors == [] and editor.console_errors == [] and translator.console_errors == []
