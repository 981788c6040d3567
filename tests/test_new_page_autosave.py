"""Autosave saves pages that exist; it never creates one (articles/page_create_view.py).

The browser test (tests/browser/test_unsaved_new_page.py) closes an unsaved editor; this one checks
the forms each view hands the browser."""

import pytest
from bs4 import BeautifulSoup

from articles.models import ArticlePage


@pytest.fixture
def autosaving(settings):
    settings.WAGTAIL_AUTOSAVE_INTERVAL = 500


def _form_controllers(response):
    assert response.status_code == 200
    return BeautifulSoup(response.content, "html.parser").select_one("#page-edit-form")["data-controller"].split()


def test_the_new_page_form_does_not_autosave(editor_client, demo_site, autosaving):
    response = editor_client.get(f"/admin/pages/add/articles/articlepage/{demo_site.pk}/")
    assert "w-autosave" not in _form_controllers(response)
    assert "w-unsaved" in _form_controllers(response)  # leaving with unsaved text still asks first


def test_an_existing_page_still_autosaves(editor_client, demo_site, autosaving):
    article = ArticlePage.objects.first()
    assert "w-autosave" in _form_controllers(editor_client.get(f"/admin/pages/{article.pk}/edit/"))
