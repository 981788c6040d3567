"""Editors approve translation drafts: only the Spanish changes, published now or with the next
publication, never over a newer draft; the translator gets a draft back with a comment; approved
snippet text reaches the pages that show it; the dashboard lists what waits for review."""

import json

import pytest
from django.core.cache import cache
from django.utils.html import strip_tags

from articles.models import ArticlePage
from benchmarks.models import Provider
from editorial.models import ApprovedSegment, TranslationDraft

from ..bilingual_pages import paragraphs, publish_article
from ..figures_support import glm_data, make_article, table
from ..workspace_support import (
    approve_spanish,
    open_workspace,
    post_page_editor,
    review,
    review_url,
    translate,
    workspace_url,
)

pytestmark = pytest.mark.django_db

NEW_TITLE, NEW_BODY = "Guía de las tablas", "<p>Todas las cifras citan su fuente.</p>"


def submit_translation(translator, page):
    key = f"body/{page.body_en.raw_data[0]['id']}"
    assert translate(translator, page, {"title": NEW_TITLE, key: NEW_BODY}, action="submit").status_code == 302
    return TranslationDraft.objects.get(status=TranslationDraft.Status.SUBMITTED)


def read(client, url):
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.text


# --- approving ------------------------------------------------------------------------------------


def test_approving_publishes_only_the_spanish_and_keeps_the_editors_draft(client, guide, translator, editor,
                                                                          editor_user):
    english_before = read(client, "/en/guide/")
    assert post_page_editor(editor, guide, "action-save", summary_en="An unpublished summary.").status_code == 302
    submit_translation(translator, guide)

    response = review(editor, guide, mode="publish")
    assert response.status_code == 302 and response["Location"] == workspace_url(guide)

    cache.clear()
    assert read(client, "/en/guide/") == english_before  # the English page is untouched, byte for byte
    spanish = read(client, "/es/guia/")
    assert NEW_TITLE in spanish and "Todas las cifras citan su fuente." in spanish
    assert "Cada cifra tiene una fuente." not in spanish
    page = ArticlePage.objects.get(pk=guide.pk)
    assert page.summary_en == "What each column means." and page.has_unpublished_changes
    latest = page.latest_revision
    assert latest.user == editor_user and latest.pk != page.live_revision_id
    assert strip_tags(latest.content["summary_en"]) == "An unpublished summary."
    assert latest.content["title_es"] == NEW_TITLE and NEW_BODY in latest.content["body_es"]
    draft = page.get_latest_revision_as_object()
    assert (strip_tags(draft.summary_en), draft.title_es) == ("An unpublished summary.", NEW_TITLE)


def test_approving_into_the_draft_only_goes_live_with_the_next_publication(client, guide, translator, editor):
    submit_translation(translator, guide)
    assert review(editor, guide, mode="draft").status_code == 302
    assert TranslationDraft.objects.get().status == TranslationDraft.Status.APPROVED

    spanish = read(client, "/es/guia/")
    assert "Cómo leer las tablas" in spanish and NEW_TITLE not in spanish
    page = ArticlePage.objects.get(pk=guide.pk)
    assert page.title_es == "Cómo leer las tablas" and page.latest_revision.content["title_es"] == NEW_TITLE

    assert post_page_editor(editor, page).status_code == 302  # the next publication
    spanish = read(client, "/es/guia/")
    assert NEW_TITLE in spanish and "Todas las cifras citan su fuente." in spanish


def test_approving_a_version_the_translator_changed_since_is_refused(client, guide, translator, editor):
    draft = submit_translation(translator, guide)
    opened_at = draft.version
    # The translator changes the submitted draft after the editor opened it.
    assert translate(translator, guide, {"title": "Otro título"}).status_code == 302

    response = review(editor, guide, version=opened_at)
    assert response.status_code == 302 and response["Location"] == review_url(guide)
    assert "The translator changed this translation after you opened it." in read(editor, review_url(guide))
    assert TranslationDraft.objects.get().status == TranslationDraft.Status.SUBMITTED
    assert not ApprovedSegment.objects.filter(text="Otro título").exists()
    assert "Otro título" not in read(client, "/es/guia/")

    assert review(editor, guide).status_code == 302  # at the version the review page shows now
    assert "Otro título" in read(client, "/es/guia/")


def test_requesting_changes_gives_the_draft_back_with_the_comment(client, guide, translator, editor):
    submit_translation(translator, guide)
    comment = "Keep «tablas» in the title, please."
    assert review(editor, guide, action="request_changes", comment=comment).status_code == 302

    draft = TranslationDraft.objects.get()
    assert draft.status == TranslationDraft.Status.EDITING and draft.review_comment == comment
    response, rows = open_workspace(translator, guide)
    assert "Keep «tablas» in the title, please." in response.text
    assert rows["title"].text == NEW_TITLE  # the translator's work is still there
    assert "Cómo leer las tablas" in read(client, "/es/guia/")
    assert review_url(guide) not in read(editor, "/admin/")  # no longer awaiting review

    assert translate(translator, guide, {"title": "Guía para leer las tablas"}, action="submit").status_code == 302
    assert TranslationDraft.objects.get().review_comment == ""


def test_a_translator_cannot_approve_their_own_translation(client, guide, translator):
    draft = submit_translation(translator, guide)
    response = translator.get(review_url(guide))
    assert response.status_code == 403 or response["Location"] == "/admin/"
    response = translator.post(review_url(guide), {"version": draft.version, "action": "approve", "mode": "publish"})
    assert response.status_code == 403 or response["Location"] == "/admin/"
    assert TranslationDraft.objects.get().status == TranslationDraft.Status.SUBMITTED
    assert NEW_TITLE not in read(client, "/es/guia/")


def test_the_preview_shows_the_draft_without_saving_it(client, guide, translator):
    submit_translation(translator, guide)
    preview = translator.get(workspace_url(guide, "editorial_workspace_preview"))
    assert preview.status_code == 200 and "no-store" in preview["Cache-Control"]
    assert '<html lang="es">' in preview.text and NEW_TITLE in preview.text
    assert NEW_TITLE not in read(client, "/es/guia/")
    assert all(NEW_TITLE not in json.dumps(r.content, ensure_ascii=False) for r in guide.revisions.all())


def test_a_spanish_slug_a_sibling_uses_is_refused_when_typed_and_when_approved(client, guide, translator, editor):
    other = publish_article(guide.get_parent(), "other", "otra", title_en="Other", title_es="Otra",
                            body_en=paragraphs("Other."), body_es=paragraphs("Otra."))
    response = translate(translator, guide, {"slug": "otra"}, action="submit")
    assert response.status_code == 400
    assert [row.errors for row in response.context["rows"] if row.key == "slug"] == [["This slug is already in use"]]

    assert translate(translator, guide, {"slug": "leer-tablas"}, action="submit").status_code == 302
    approve_spanish(other, {"slug": "leer-tablas"})  # the sibling takes it before the review
    response = review(editor, guide)
    assert response.status_code == 302 and response["Location"] == review_url(guide)  # refused, not a server error
    assert "The approved Spanish could not be saved" in read(editor, review_url(guide))
    assert TranslationDraft.objects.get(memory__object_id=guide.pk).status == TranslationDraft.Status.SUBMITTED
    assert ArticlePage.objects.get(pk=guide.pk).slug_es == "guia"
    assert client.get("/es/guia/").status_code == 200


# --- snippets ------------------------------------------------------------------------------------------


def provider_cards(data, provider):
    card = {"provider": provider.pk, "summary": "", "strengths": "<p>Quick.</p>", "limitations": "<p>Pricey.</p>"}
    return {"type": "provider_cards", "value": {
        "metric": "output_speed_median", "models": [{"model": data["model"].pk, "source": data["source"].pk}],
        "cards": [card],
    }}


def test_a_provider_description_approved_in_the_workspace_shows_on_the_spanish_page(
    client, translator, editor, django_capture_on_commit_callbacks
):
    glm = glm_data()
    baseten = Provider.objects.get(slug="baseten")
    english = (baseten.name, baseten.slug, baseten.website, baseten.description_en)
    page = make_article([provider_cards(glm, baseten)], sources=[glm["source"]])
    english_url, spanish_url = f"/en/{page.slug_en}/", f"/es/{page.slug_es}/"
    assert "Baseten serves open-weight models." in read(client, spanish_url)  # English until translated

    spanish = "Baseten sirve modelos de pesos abiertos."
    assert translate(translator, baseten, {"description": spanish}, action="submit").status_code == 302
    assert spanish not in read(client, spanish_url)
    with django_capture_on_commit_callbacks(execute=True):  # the request's commit
        assert review(editor, baseten).status_code == 302

    assert spanish in read(client, spanish_url)  # not the page cached before
    assert "Baseten serves open-weight models." in read(client, english_url)
    baseten = Provider.objects.get(pk=baseten.pk)
    assert (baseten.name, baseten.slug, baseten.website, baseten.description_en) == english
    assert baseten.description_es == spanish


# --- the dashboard -------------------------------------------------------------------------------------


def test_the_dashboard_lists_a_submitted_translation_for_editors_only(guide, translator, editor):
    key = f"body/{guide.body_en.raw_data[0]['id']}"
    translate(translator, guide, {key: NEW_BODY})  # saved, not submitted
    assert review_url(guide) not in read(editor, "/admin/")

    submit_translation(translator, guide)
    dashboard = read(editor, "/admin/")
    assert "Translations awaiting your review" in dashboard
    assert review_url(guide) in dashboard and "Reading the tables" in dashboard and "traductora" in dashboard
    translator_dashboard = read(translator, "/admin/")
    assert review_url(guide) not in translator_dashboard
    assert "Translations awaiting your review" not in translator_dashboard

    review(editor, guide)
    assert review_url(guide) not in read(editor, "/admin/")


def test_the_dashboard_panel_costs_the_same_queries_for_one_or_five_drafts(guide, translator, editor):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from wagtail.models import Page

    def dashboard_queries():
        editor.get("/admin/")  # session and caches
        with CaptureQueriesContext(connection) as ctx:
            assert editor.get("/admin/").status_code == 200
        return len(ctx.captured_queries)

    translate(translator, guide, {"title": "Uno"}, action="submit")
    one = dashboard_queries()
    home = Page.objects.get(pk=guide.get_parent().pk).specific
    for n in range(4):
        page = publish_article(home, f"extra-{n}", title_en=f"Extra {n}", body_en=paragraphs("Words."))
        translate(translator, page, {"title": f"Extra {n} ES"}, action="submit")
    five = dashboard_queries()
    assert five <= one, (one, five)
    assert read(editor, "/admin/").count("/review/") >= 5


# --- a body of data blocks only ----------------------------------------------------------------------


def test_an_article_of_data_blocks_gets_its_spanish_version_once_its_title_is_approved(client, translator, editor):
    glm = glm_data()
    page = make_article([table(glm)], sources=[glm["source"]], spanish=False)
    assert client.get(page.url.replace("/en/", "/es/")).status_code == 404  # English only

    spanish = {"title": "Proveedores de GLM-5.3", "slug": "proveedores-glm"}
    assert translate(translator, page, spanish, action="submit").status_code == 302
    assert review(editor, page).status_code == 302

    html = read(client, "/es/proveedores-glm/")
    assert "Proveedores de GLM-5.3" in html and "Baseten" in html
    live = ArticlePage.objects.get(pk=page.pk)
    assert list(live.body_es.raw_data) == list(live.body_en.raw_data)  # no text to translate: the same blocks and data


def test_approving_for_a_page_never_published_says_it_waits_for_the_first_publication(
    guide, translator, editor
):
    guide.unpublish()
    assert translate(translator, guide, {"title": NEW_TITLE}, action="submit").status_code == 302
    response = review(editor, guide, mode="publish")
    assert response.status_code == 302
    messages = [str(message) for message in editor.get(response["Location"]).context["messages"]]
    assert any("goes live with the next publication" in message for message in messages), messages
    page = ArticlePage.objects.get(pk=guide.pk)
    assert not page.live
    assert page.get_latest_revision_as_object().title_es == NEW_TITLE
