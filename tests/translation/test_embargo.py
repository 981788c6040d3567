"""English waiting in an editor's unpublished draft never reaches readers through its Spanish: the
workspace translates the live English and shows the draft's only as a marked preview; Spanish
approved for the draft's English is held and goes live together with that English."""

import pytest
from django.core.cache import cache

from articles.models import ArticlePage
from editorial.models import ApprovedSegment

from ..workspace_support import form_post, open_workspace, post_page_editor, review, workspace_url

pytestmark = pytest.mark.django_db

CLAIM_EN = "EMBARGO-E2 unpublished claim."
CLAIM_ES = "EMBARGO-ES-E2 afirmación no publicada."
LIVE_EN, LIVE_ES = "Every figure has a source.", "Cada cifra tiene una fuente."


def save_unpublished_claim(editor, page):
    """The editor rewrites the article's paragraph and saves it as a draft (not published)."""
    body = page.get_latest_revision_as_object().body_en.raw_data
    body[0]["value"] = f"<p>{CLAIM_EN}</p>"
    assert post_page_editor(editor, page, "action-save", body_en=list(body)).status_code == 302
    return f"body/{body[0]['id']}"


def read(client, url):
    cache.clear()
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.text


def test_the_workspace_translates_the_live_english_and_marks_the_draft_english(guide, translator, editor):
    key = save_unpublished_claim(editor, guide)

    response, rows = open_workspace(translator, guide)
    assert rows[key].segment.source == f"<p>{LIVE_EN}</p>" and rows[key].status == "up_to_date"
    assert CLAIM_EN not in response.text
    assert "Preview the draft English" in response.text

    response, rows = open_workspace(translator, guide, english="draft")
    assert rows[key].segment.source == f"<p>{CLAIM_EN}</p>" and rows[key].unpublished
    assert not rows["title"].unpublished
    assert "Draft English, not published yet" in response.text
    # Switching the status filter stays on the draft preview.
    assert "?status=missing&amp;english=draft" in response.text


def test_spanish_for_unpublished_english_goes_live_only_with_that_english(client, guide, translator, editor):
    key = save_unpublished_claim(editor, guide)
    _response, rows = open_workspace(translator, guide, english="draft")
    data = form_post(rows, {key: f"<p>{CLAIM_ES}</p>"}, action="submit")
    assert translator.post(workspace_url(guide) + "?english=draft", data).status_code == 302

    review_page = editor.get(workspace_url(guide, "editorial_workspace_review")).text
    assert review(editor, guide, mode="publish").status_code == 302

    english, spanish = read(client, "/en/guide/"), read(client, "/es/guia/")
    assert CLAIM_EN not in english and LIVE_EN in english
    assert CLAIM_ES not in spanish and LIVE_ES in spanish
    assert "Draft English, not published yet" in review_page  # the editor was told what waits
    # The editor's draft carries the new pair; its Spanish preview shows it.
    draft = ArticlePage.objects.get(pk=guide.pk).get_latest_revision_as_object()
    assert CLAIM_EN in draft.body_en.raw_data[0]["value"] and CLAIM_ES in draft.body_es.raw_data[0]["value"]

    assert post_page_editor(editor, guide).status_code == 302  # the editor publishes the English
    english, spanish = read(client, "/en/guide/"), read(client, "/es/guia/")
    assert CLAIM_EN in english and CLAIM_ES in spanish and LIVE_ES not in spanish
    approved = ApprovedSegment.objects.get(key=key)
    assert (approved.text, approved.held_text) == (f"<p>{CLAIM_ES}</p>", "")
