"""Translators change Spanish text and submit it; editors approve and publish. Each right is tested both ways."""

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from wagtail.models import Page

from editorial.roles import EDITORS, TRANSLATORS

from .admin_forms import form_data
from .bilingual_pages import build_small_site


def _member(django_user_model, username, group):
    user = django_user_model.objects.create_user(username, f"{username}@example.com", "pw-not-used-123")
    user.groups.add(Group.objects.get(name=group))
    return user


def _client(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def small_site(db):
    return build_small_site()


@pytest.fixture
def translator(db, django_user_model):
    return _member(django_user_model, "traductora", TRANSLATORS)


@pytest.fixture
def editor(db, django_user_model):
    return _member(django_user_model, "editora", EDITORS)


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


def _post_edit(client, page, action, **changes):
    response = client.get(_edit_url(page))
    assert response.status_code == 200
    data = form_data(response.text, "page-edit-form")
    data.update(changes)
    data[action] = "1"
    return client.post(_edit_url(page), data)


def _submit_spanish_title(client, page, title):
    response = _post_edit(client, page, "action-submit", title_es=title)
    assert response.status_code == 302, response.content[:2000]
    return Page.objects.get(pk=page.pk).specific


def test_translator_edits_spanish_title_and_submits_to_spanish_review(client, small_site, translator):
    page = _submit_spanish_title(_client(translator), small_site, "Pruebas de APIs de LLM")
    assert page.workflow_in_progress
    assert page.current_workflow_state.workflow.name == "Spanish review"
    assert page.current_workflow_task.name == "Editors approve Spanish"
    draft = page.get_latest_revision_as_object()
    assert draft.title_es == "Pruebas de APIs de LLM"
    assert draft.title_en == "LLM API benchmarks"
    # Submitted is not published: readers still see the old Spanish title.
    assert page.title_es == "Benchmarks de APIs de LLM"
    assert "Pruebas de APIs de LLM" not in client.get("/es/").text


def test_a_user_outside_the_roles_cannot_open_the_page_editor(small_site, django_user_model):
    outsider = django_user_model.objects.create_user("outsider", "o@example.com", "pw-not-used-123")
    response = _client(outsider).get(_edit_url(small_site))
    assert response.status_code in (302, 403)
    assert response.status_code == 403 or response["Location"].startswith("/admin/")


def test_translator_cannot_publish(client, small_site, translator):
    translator_client = _client(translator)
    editor_page = translator_client.get(_edit_url(small_site)).text
    assert 'name="action-publish"' not in editor_page
    response = _post_edit(translator_client, small_site, "action-publish", title_es="Publicado sin revisión")
    assert response.status_code == 302
    page = Page.objects.get(pk=small_site.pk).specific
    # Wagtail ignores a publish request without publish rights: the change is only a draft.
    assert page.title_es == "Benchmarks de APIs de LLM"
    assert page.has_unpublished_changes
    assert page.get_latest_revision_as_object().title_es == "Publicado sin revisión"
    assert "Publicado sin revisión" not in client.get("/es/").text
    assert_refused(translator_client.post(reverse("wagtailadmin_pages:unpublish", args=[page.pk])))
    assert Page.objects.get(pk=page.pk).live


def test_editor_can_publish_directly(client, small_site, editor):
    response = _post_edit(_client(editor), small_site, "action-publish", title_es="Publicado por la editora")
    assert response.status_code == 302
    assert Page.objects.get(pk=small_site.pk).specific.title_es == "Publicado por la editora"
    assert "Publicado por la editora" in client.get("/es/").text


def test_editor_approves_and_only_spanish_changes(client, small_site, translator, editor):
    en_before = client.get("/en/").text
    page = _submit_spanish_title(_client(translator), small_site, "Pruebas de APIs de LLM")
    task_state = page.current_workflow_task_state
    approve = reverse("wagtailadmin_pages:workflow_action", args=[page.pk, "approve", task_state.pk])

    # The translator cannot approve their own submission.
    assert_refused(_client(translator).post(approve))
    assert Page.objects.get(pk=page.pk).specific.workflow_in_progress

    response = _client(editor).post(approve)
    assert response.status_code == 302
    page = Page.objects.get(pk=page.pk).specific
    assert not page.workflow_in_progress
    assert page.title_es == "Pruebas de APIs de LLM"
    es = client.get("/es/")
    assert es.status_code == 200 and "Pruebas de APIs de LLM" in es.text
    en_after = client.get("/en/").text
    assert "LLM API benchmarks" in en_after and "Pruebas de APIs de LLM" not in en_after
    # Same English text (the round trip through the rich text editor only adds block keys to the markup).
    assert _text(en_after) == _text(en_before)


def _text(html):
    return " ".join(BeautifulSoup(html, "html.parser").get_text(" ").split())


def test_translator_cannot_delete_pages_live_or_draft(small_site, translator, editor):
    translator_client = _client(translator)
    live = small_site.get_children().live().first()
    assert_refused(translator_client.get(reverse("wagtailadmin_pages:delete", args=[live.pk])))
    assert_refused(translator_client.post(reverse("wagtailadmin_pages:delete", args=[live.pk])))
    assert Page.objects.filter(pk=live.pk).exists()

    # Wagtail alone would let anyone with "change" delete an unpublished leaf page; our hook refuses.
    draft = _draft_article(small_site)
    assert_refused(translator_client.post(reverse("wagtailadmin_pages:delete", args=[draft.pk])))
    assert Page.objects.filter(pk=draft.pk).exists()

    # Editors may delete.
    assert _client(editor).post(reverse("wagtailadmin_pages:delete", args=[draft.pk])).status_code == 302
    assert not Page.objects.filter(pk=draft.pk).exists()


def _draft_article(home):
    from articles.models import ArticlePage

    page = ArticlePage(
        title_en="Draft", title_es="Borrador", slug_en="draft-only", slug_es="solo-borrador", live=False
    )
    home.add_child(instance=page)
    return page


def test_roles_data_permissions(translator, editor):
    for codename in ("change_provider", "change_source"):
        assert translator.has_perm(f"benchmarks.{codename}")
    for codename in ("delete_provider", "delete_source", "add_provider", "add_source"):
        assert not translator.has_perm(f"benchmarks.{codename}")
    for model in ("measurement", "price", "snapshot"):
        for action in ("add", "change", "delete"):
            assert not translator.has_perm(f"benchmarks.{action}_{model}")
        assert editor.has_perm(f"benchmarks.change_{model}")
    assert translator.has_perm("wagtailadmin.access_admin") and editor.has_perm("wagtailadmin.access_admin")


def test_translator_cannot_change_english_page_fields(small_site, translator, editor):
    """The page form disables every non-Spanish field for translators; a forged English value is ignored."""
    response = _client(translator).get(_edit_url(small_site))
    soup = BeautifulSoup(response.text, "html.parser")
    assert soup.find("input", {"name": "title_en"}).has_attr("disabled")
    assert not soup.find("input", {"name": "title_es"}).has_attr("disabled")
    submitted = _submit_spanish_title(_client(translator), small_site, "Título nuevo")
    assert submitted.get_latest_revision_as_object().title_es == "Título nuevo"
    _post_edit(_client(translator), small_site, "action-submit", title_en="Hijacked English title")
    draft = Page.objects.get(pk=small_site.pk).specific.get_latest_revision_as_object()
    assert draft.title_en == "LLM API benchmarks"
    assert draft.title_es == "Título nuevo"
    # editors keep full access to the English fields
    response = _client(editor).get(_edit_url(small_site))
    soup = BeautifulSoup(response.text, "html.parser")
    assert not soup.find("input", {"name": "title_en"}).has_attr("disabled")
