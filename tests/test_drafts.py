"""Drafts always save: a data block whose model is not chosen yet never breaks a save or autosave."""

import pytest
from django.contrib.auth import get_user_model
from wagtail.test.utils.form_data import inline_formset, nested_form_data, rich_text, streamfield

from articles.models import ArticlePage


def _list(items):
    return {"count": len(items), **{f"{i}-value": v for i, v in enumerate(items)},
            **{f"{i}-deleted": "" for i in range(len(items))}, **{f"{i}-order": i for i in range(len(items))}}


def empty_data_blocks():
    """Every data block as the editor leaves it right after choosing it from the block menu."""
    return streamfield([
        ("picks_table", {"caption": rich_text(""), "rows": _list([
            {"need": "fastest", "model": "", "source": "", "compare_with": "", "extra_citations": _list([])}])}),
        ("provider_table", {"model": "", "source": "", "columns": _list([]), "sort_metric": "output_speed_median",
                            "name_style": "short", "show_api_model": "", "cite_sources": "on", "caption": rich_text("")}),
        ("bar_chart", {"model": "", "source": "", "metric": "output_speed_median", "name_style": "short",
                       "note": rich_text(""), "caption_en": rich_text("")}),
        ("provider_cards", {"metric": "output_speed_median", "models": _list([{"model": "", "source": ""}]),
                            "cards": _list([{"provider": "", "summary": rich_text(""), "strengths": rich_text(""),
                                             "limitations": rich_text("")}])}),
        ("provider_list", {"model": "", "source": "", "pattern": "custom", "parts": _list([
            {"field": "tps_p95", "before_en": "", "after_en": "", "unit": "auto",
             "decimals": ""}]),
                           "order_by": "e2e_p99", "order": "asc", "name_style": "full"}),
        ("endpoint_list", {"model": "", "source": "", "order_by": "", "name_style": "full"}),
        ("leaderboard", {"metric": "output_speed_median", "source": "", "models": _list([{"model": "", "source": ""}]),
                         "window_hours": "", "limit": "", "name_style": "short",
                         "value_heading_en": "", "caption_en": rich_text("")}),
    ])


def page_form(body, slug="draft-blocks", action=None):
    data = nested_form_data({
        "title_en": "Draft with empty blocks", "slug_en": slug, "summary_en": rich_text(""), "body_en": body,
        "publisher_disclosure_en": rich_text(""),
        "show_meta_line": "on", "statement_policy": "mark",
        "page_sources": inline_formset([]),
    })
    if action:
        data[action] = "1"
    return data


@pytest.fixture
def editor(client, demo_site):
    user = get_user_model().objects.create_superuser("drafter", "drafter@example.com", "pw-drafter-123")
    client.force_login(user)
    return client


def test_a_draft_with_every_data_block_empty_saves(editor, demo_site):
    response = editor.post(f"/admin/pages/add/articles/articlepage/{demo_site.pk}/", page_form(empty_data_blocks()))
    assert response.status_code == 302, response.content[:2000]
    page = ArticlePage.objects.get(slug_en="draft-blocks")
    assert not page.live
    revision = page.latest_revision.as_object()
    assert [child.block_type for child in revision.body] == [
        "picks_table", "provider_table", "bar_chart", "provider_cards", "provider_list", "endpoint_list", "leaderboard"]
    # the editor keeps working: the edit form and both previews open
    assert editor.get(f"/admin/pages/{page.pk}/edit/").status_code == 200
    preview_url = f"/admin/pages/{page.pk}/edit/preview/"
    assert editor.post(preview_url, page_form(empty_data_blocks())).json()["is_valid"] is True
    english = editor.get(preview_url, {"mode": "en"})
    assert english.status_code == 200
    assert english.content.decode().count("This block is not complete yet") == 7
    assert "Still to choose:" in english.content.decode() and "model" in english.content.decode()
    spanish = editor.get(preview_url, {"mode": "es"})
    assert spanish.status_code == 200


def test_autosave_of_a_page_with_empty_data_blocks_succeeds(editor, demo_site):
    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    data = page_form(empty_data_blocks(), slug="fastest-llm-api")
    response = editor.post(f"/admin/pages/{page.pk}/edit/", data, headers={"Accept": "application/json"})
    assert response.status_code == 200, response.content[:2000]
    assert response.json()["success"] is True


def test_publishing_names_the_missing_fields(editor, demo_site):
    response = editor.post(f"/admin/pages/add/articles/articlepage/{demo_site.pk}/",
                           page_form(empty_data_blocks(), slug="publish-empty", action="action-publish"))
    assert response.status_code == 200
    assert not ArticlePage.objects.filter(slug_en="publish-empty").exists()
    html = response.content.decode()
    assert "The page could not be created due to validation errors" in html
    assert "This field is required" in html
