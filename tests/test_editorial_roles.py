"""Translators write Spanish in the workspace and submit it; editors approve it and publish English.
Each right is tested both ways."""

import pytest
from bs4 import BeautifulSoup
from django.core.cache import cache
from django.urls import reverse
from wagtail.models import Page

from editorial.models import TranslationDraft
from editorial.roles import EDITORS, TRANSLATORS

from .admin_forms import form_data
from .bilingual_pages import build_small_site
from .workspace_support import logged_in, member, review, review_url, translate, workspace_url


@pytest.fixture
def small_site(db):
    return build_small_site()


@pytest.fixture
def translator(db, django_user_model):
    return member(django_user_model, "traductora", TRANSLATORS)


@pytest.fixture
def editor(db, django_user_model):
    return member(django_user_model, "editora", EDITORS)


def assert_refused(response):
    # Wagtail's admin turns PermissionDenied into a redirect to the dashboard with an error message.
    assert response.status_code == 403 or (
        response.status_code == 302 and response["Location"] == "/admin/"
    ), (
        response.status_code,
        response.get("Location"),
    )


def _edit_url(page):
    return reverse("wagtailadmin_pages:edit", args=[page.pk])


def _editor_form(client, page):
    """The page edit form as `client` (who may open it) would post it untouched."""
    response = client.get(_edit_url(page))
    assert response.status_code == 200
    return form_data(response.text, "page-edit-form")


def _live_spanish(client):
    return client.get("/es/").text


def test_translator_translates_in_the_workspace_and_submits_for_review(client, small_site, translator):
    translator_client = logged_in(translator)
    assert translate(translator_client, small_site, {"title": "Pruebas de APIs de LLM"}, action="submit").status_code == 302
    draft = TranslationDraft.objects.get()
    assert draft.status == TranslationDraft.Status.SUBMITTED and draft.updated_by == translator
    assert draft.segments.get(key="title").text == "Pruebas de APIs de LLM"
    # Submitted is not published, nor saved into the page: readers and revisions keep the old title.
    page = Page.objects.get(pk=small_site.pk).specific
    assert (page.title_es, page.title_en) == ("Benchmarks de APIs de LLM", "LLM API benchmarks")
    assert page.latest_revision.content["title_es"] == "Benchmarks de APIs de LLM"
    assert "Pruebas de APIs de LLM" not in _live_spanish(client)
    reopened = translator_client.get(workspace_url(page))
    assert reopened.context["draft"].status == TranslationDraft.Status.SUBMITTED
    assert "Pruebas de APIs de LLM" in reopened.text  # the translator still sees their own text


def test_a_user_outside_the_roles_cannot_open_the_page_editor(small_site, django_user_model):
    outsider = django_user_model.objects.create_user("outsider", "o@example.com", "pw-not-used-123")
    response = logged_in(outsider).get(_edit_url(small_site))
    assert response.status_code in (302, 403)
    assert response.status_code == 403 or response["Location"].startswith("/admin/")
    workspace = logged_in(outsider).get(workspace_url(small_site))
    assert workspace.status_code == 302 and workspace["Location"].startswith("/admin/login/")


def test_translator_cannot_publish(client, small_site, translator, editor):
    """Not from the page editor (closed to translators, even to a forged POST), not by submitting in
    the workspace, not by approving their own submission, and no unpublishing either."""
    translator_client = logged_in(translator)
    revisions = small_site.revisions.count()
    assert_refused(translator_client.get(_edit_url(small_site)))
    data = _editor_form(logged_in(editor), small_site)
    data.update({"title_en": "Published without review", "action-publish": "1"})
    assert_refused(translator_client.post(_edit_url(small_site), data))
    page = Page.objects.get(pk=small_site.pk).specific
    assert page.title_en == "LLM API benchmarks" and page.revisions.count() == revisions

    translate(translator_client, page, {"title": "Publicado sin revisión"}, action="submit")
    draft = TranslationDraft.objects.get()
    assert_refused(translator_client.get(review_url(page)))
    assert_refused(translator_client.post(review_url(page), {"version": draft.version, "action": "approve"}))
    page = Page.objects.get(pk=page.pk).specific
    assert page.title_es == "Benchmarks de APIs de LLM" and not page.has_unpublished_changes
    assert page.revisions.count() == revisions
    assert "Publicado sin revisión" not in _live_spanish(client)
    assert_refused(translator_client.post(reverse("wagtailadmin_pages:unpublish", args=[page.pk])))
    assert Page.objects.get(pk=page.pk).live


def test_editor_can_publish_directly(client, small_site, editor):
    """English from the page editor; Spanish the editor writes is approved by the editor at once."""
    editor_client = logged_in(editor)
    data = _editor_form(editor_client, small_site)
    data.update({"title_en": "Published by the editor", "action-publish": "1"})
    assert editor_client.post(_edit_url(small_site), data).status_code == 302
    assert "Published by the editor" in client.get("/en/").text
    translate(editor_client, small_site, {"title": "Publicado por la editora"}, action="submit")
    assert review(editor_client, small_site).status_code == 302
    assert Page.objects.get(pk=small_site.pk).specific.title_es == "Publicado por la editora"
    assert "Publicado por la editora" in _live_spanish(client)


def test_editor_approves_and_only_spanish_changes(client, small_site, translator, editor):
    en_before = client.get("/en/").text
    translate(logged_in(translator), small_site, {"title": "Pruebas de APIs de LLM"}, action="submit")

    # The translator cannot approve their own submission.
    draft = TranslationDraft.objects.get()
    forged = {"version": draft.version, "action": "approve", "mode": "publish"}
    assert_refused(logged_in(translator).post(review_url(small_site), forged))
    assert TranslationDraft.objects.get().status == TranslationDraft.Status.SUBMITTED

    response = review(logged_in(editor), small_site)
    assert response.status_code == 302
    assert TranslationDraft.objects.get().status == TranslationDraft.Status.APPROVED
    page = Page.objects.get(pk=small_site.pk).specific
    assert page.title_es == "Pruebas de APIs de LLM"
    es = client.get("/es/")
    assert es.status_code == 200 and "Pruebas de APIs de LLM" in es.text
    cache.clear()  # rendered afresh, not served from the page cache
    en_after = client.get("/en/").text
    assert "LLM API benchmarks" in en_after and "Pruebas de APIs de LLM" not in en_after
    assert en_after == en_before


def test_translator_cannot_delete_pages_live_or_draft(small_site, translator, editor):
    translator_client = logged_in(translator)
    live = small_site.get_children().live().first()
    assert_refused(translator_client.get(reverse("wagtailadmin_pages:delete", args=[live.pk])))
    assert_refused(translator_client.post(reverse("wagtailadmin_pages:delete", args=[live.pk])))
    assert Page.objects.filter(pk=live.pk).exists()

    # Wagtail alone would let anyone with "change" delete an unpublished leaf page; our hook refuses.
    draft = _draft_article(small_site)
    assert_refused(translator_client.post(reverse("wagtailadmin_pages:delete", args=[draft.pk])))
    assert Page.objects.filter(pk=draft.pk).exists()

    # Editors may delete.
    assert logged_in(editor).post(reverse("wagtailadmin_pages:delete", args=[draft.pk])).status_code == 302
    assert not Page.objects.filter(pk=draft.pk).exists()


def _draft_article(home):
    from articles.models import ArticlePage

    page = ArticlePage(
        title_en="Draft", title_es="Borrador", slug_en="draft-only", slug_es="solo-borrador", live=False
    )
    home.add_child(instance=page)
    return page


def test_roles_data_permissions(translator, editor):
    # Translators translate in the workspace; they change no provider, source or data row themselves.
    assert translator.has_perm("editorial.translate") and not translator.has_perm("editorial.review_translation")
    assert editor.has_perm("editorial.translate") and editor.has_perm("editorial.review_translation")
    for codename in ("change_provider", "change_source", "delete_provider", "delete_source", "add_provider",
                     "add_source"):
        assert not translator.has_perm(f"benchmarks.{codename}")
    for model in ("measurement", "price", "snapshot"):
        for action in ("add", "change", "delete"):
            assert not translator.has_perm(f"benchmarks.{action}_{model}")
        assert editor.has_perm(f"benchmarks.change_{model}")
    assert translator.has_perm("wagtailadmin.access_admin") and editor.has_perm("wagtailadmin.access_admin")


def test_translator_cannot_change_english_page_fields(small_site, translator, editor):
    """The page form is closed to translators: a forged English value never reaches a revision.
    Editors get the English fields (and no Spanish one: Spanish is written in the workspace)."""
    revisions = small_site.revisions.count()
    data = _editor_form(logged_in(editor), small_site)
    data.update({"title_en": "Hijacked English title", "action-submit": "1"})
    assert_refused(logged_in(translator).post(_edit_url(small_site), data))
    page = Page.objects.get(pk=small_site.pk).specific
    assert page.revisions.count() == revisions
    assert page.get_latest_revision_as_object().title_en == "LLM API benchmarks"
    response = logged_in(editor).get(_edit_url(small_site))
    soup = BeautifulSoup(response.text, "html.parser")
    assert not soup.find("input", {"name": "title_en"}).has_attr("disabled")
    assert soup.find("input", {"name": "title_es"}) is None
