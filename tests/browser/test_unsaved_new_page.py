"""An editor who starts a new article and closes the editor without saving leaves no page behind.

Wagtail 8 autosaves the editor's form in the background; on the create view its first autosave
creates the page, so an abandoned "Add child page" used to leave a draft that Translation status then
listed as "NOT PUBLISHED · 4 missing". Autosave stays on for pages that exist.
"""

import pytest
from playwright.sync_api import expect

from .admin_steps import log_in, member, visit

pytestmark = pytest.mark.browser

TITLE = "Draft nobody saved"
# Wagtail's default interval; the site fixture turns autosave off for the other tests.
AUTOSAVE_INTERVAL_MS = 500
UNSAVED_WATCH_DELAY_MS = 2_500


def test_closing_a_new_article_without_saving_creates_no_page(open_page, django_user_model, settings):
    from wagtail.models import Page

    from articles.models import ArticlePage, HomePage
    from editorial.roles import EDITORS

    settings.WAGTAIL_AUTOSAVE_INTERVAL = AUTOSAVE_INTERVAL_MS
    home = HomePage.objects.get()
    pages_before = Page.objects.count()
    member(django_user_model, "editora", EDITORS)
    page = open_page()
    log_in(page, "editora")

    visit(page, f"/admin/pages/{home.pk}/add_subpage/")
    page.locator(f"a[href$='/pages/add/articles/articlepage/{home.pk}/']").click()
    # Wagtail's unsaved-changes watch takes the form as it is 2 s after loading as its starting
    # point; an editor types after that, so only then is the typing an edit autosave would save.
    page.wait_for_timeout(UNSAVED_WATCH_DELAY_MS)
    page.locator("#id_title_en").press_sequentially(TITLE)
    page.locator("#id_title_en").press("Tab")
    page.locator("#id_summary_en").press_sequentially("Some words about a page the editor then abandons.")
    # Several autosave intervals of idleness, and whatever those would have posted answered.
    page.wait_for_timeout(8 * AUTOSAVE_INTERVAL_MS)
    page.wait_for_load_state("networkidle")
    page.close()

    assert not ArticlePage.objects.filter(title_en=TITLE).exists()
    assert Page.objects.count() == pages_before

    status = open_page()
    log_in(status, "editora")
    visit(status, "/admin/translation-status/")
    expect(status.locator("body")).not_to_contain_text(TITLE)
