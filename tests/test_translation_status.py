"""The admin's translation status: what lacks Spanish, and what was translated from older English."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.urls import reverse
from wagtail.models import Page

from benchmarks.models import Provider, Source
from editorial.roles import EDITORS, TRANSLATORS

from .admin_forms import form_data
from .bilingual_pages import build_small_site, paragraphs, publish_article

STATUS_URL = "/admin/translation-status/"


@pytest.fixture
def small_site(db):
    return build_small_site()


def _client_in(django_user_model, username, group):
    user = django_user_model.objects.create_user(username, f"{username}@example.com", "pw-not-used-123")
    if group:
        user.groups.add(Group.objects.get(name=group))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def translator_client(db, django_user_model):
    return _client_in(django_user_model, "traductor", TRANSLATORS)


@pytest.fixture
def editor_client_in_group(db, django_user_model):
    return _client_in(django_user_model, "editor-group", EDITORS)


def _rows(client):
    """{data-object: (problem, row text)} of the status table."""
    from bs4 import BeautifulSoup

    response = client.get(STATUS_URL)
    assert response.status_code == 200
    soup = BeautifulSoup(response.text, "html.parser")
    return {
        row["data-object"]: (row["data-problem"], " ".join(row.get_text(" ").split()), row.find("a"))
        for row in soup.select("table.translation-status tbody tr")
    }


def _key(obj):
    return f"{obj._meta.verbose_name}:{obj.pk}"


def _republish(page, **values):
    page = Page.objects.get(pk=page.pk).specific
    for name, value in values.items():
        setattr(page, name, value)
    page.save_revision().publish()
    return page


def test_translators_see_the_status_menu_and_view_others_do_not(
    small_site, translator_client, django_user_model
):
    assert translator_client.get(STATUS_URL).status_code == 200
    assert "Translation status" in translator_client.get("/admin/").text
    outsider = django_user_model.objects.create_user("outsider", "o@example.com", "pw-not-used-123")
    outsider.user_permissions.add(Permission.objects.get(codename="access_admin"))
    client = Client()
    client.force_login(outsider)
    assert "Translation status" not in client.get("/admin/").text
    response = client.get(STATUS_URL)
    assert response.status_code in (302, 403) and "Translation status" not in response.text


def test_page_without_spanish_body_is_listed_with_a_link_to_edit_it(small_site, translator_client):
    complete = Page.objects.get(slug_en="guide")
    untranslated = publish_article(
        small_site,
        "untranslated",
        title_en="Only in English",
        title_es="Solo en inglés",
        body_en=paragraphs("English body."),
    )
    rows = _rows(translator_client)
    assert _key(complete.specific) not in rows
    problem, text, link = rows[_key(untranslated)]
    assert problem == "missing"
    assert "Only in English" in text and "body" in text
    assert link["href"] == reverse("wagtailadmin_pages:edit", args=[untranslated.pk])


def test_english_change_after_spanish_lists_page_until_spanish_is_saved(small_site, translator_client):
    guide = Page.objects.get(slug_en="guide").specific
    assert _key(guide) not in _rows(translator_client)

    _republish(guide, body_en=paragraphs("Every figure has a dated source."))
    problem, text, _link = _rows(translator_client)[_key(guide)]
    assert problem == "outdated"
    assert "body" in text and "summary" not in text

    # Reverting the English makes the old Spanish right again.
    _republish(guide, body_en=paragraphs("Every figure has a source."))
    assert _key(guide) not in _rows(translator_client)

    _republish(guide, body_en=paragraphs("Every figure has a dated source."))
    assert _key(guide) in _rows(translator_client)
    _republish(guide, body_es=paragraphs("Cada cifra tiene una fuente fechada."))
    assert _key(guide) not in _rows(translator_client)


def test_status_follows_the_admin_workflow(small_site, translator_client, editor_client_in_group):
    """Editor changes the English title; the translator's Spanish counts once the editor approves it."""
    home = small_site
    edit_url = reverse("wagtailadmin_pages:edit", args=[home.pk])

    data = form_data(editor_client_in_group.get(edit_url).text, "page-edit-form")
    data.update(title_en="Measured LLM API benchmarks", **{"action-publish": "1"})
    assert editor_client_in_group.post(edit_url, data).status_code == 302
    problem, text, _link = _rows(translator_client)[_key(home.specific)]
    assert problem == "outdated" and "title" in text

    data = form_data(translator_client.get(edit_url).text, "page-edit-form")
    data.update(title_es="Benchmarks medidos de APIs de LLM", **{"action-submit": "1"})
    assert translator_client.post(edit_url, data).status_code == 302
    # Submitted, not yet published: still listed, marked as in review.
    _problem, text, _link = _rows(translator_client)[_key(home.specific)]
    assert "in review" in text

    page = Page.objects.get(pk=home.pk)
    approve = reverse(
        "wagtailadmin_pages:workflow_action", args=[page.pk, "approve", page.current_workflow_task_state.pk]
    )
    assert editor_client_in_group.post(approve).status_code == 302
    assert _key(home.specific) not in _rows(translator_client)


def test_snippets_missing_or_outdated_spanish(db, translator_client):
    provider = Provider.objects.create(
        name="Acme", slug="acme", description_en="Fast GPUs.", description_es=""
    )
    done = Provider.objects.create(
        name="Beta", slug="beta", description_en="Cheap.", description_es="Barato."
    )
    source = Source.objects.create(
        title_en="Provider benchmarks",
        title_es="Benchmarks de proveedores",
        publisher="AA",
        url="https://example.com/",
    )
    rows = _rows(translator_client)
    assert rows[_key(provider)][0] == "missing"
    assert _key(done) not in rows and _key(source) not in rows

    source.attribution_en = "Data: AA"
    source.save()
    assert _rows(translator_client)[_key(source)][0] == "missing"
    source.attribution_es = "Datos: AA"
    source.save()
    assert _key(source) not in _rows(translator_client)

    done.description_en = "Cheapest per token."
    done.save()
    assert _rows(translator_client)[_key(done)][0] == "outdated"
    done.description_es = "El más barato por token."
    done.save()
    assert _key(done) not in _rows(translator_client)


@pytest.mark.parametrize("articles", [2, 10])
def test_status_view_query_count_does_not_grow_with_content(
    small_site, translator_client, django_assert_max_num_queries, articles
):
    for i in range(articles):
        publish_article(small_site, f"extra-{i}", title_en=f"Extra {i}", body_en=paragraphs("English only."))
        Provider.objects.create(name=f"P{i}", slug=f"p{i}", description_en="English only.")
    translator_client.get(STATUS_URL)  # warm per-process caches (content types, site root paths)
    with django_assert_max_num_queries(18):
        rows = _rows(translator_client)
    assert sum(1 for key in rows if key.startswith("article:")) == articles


def test_baseline_command_lets_later_english_edits_show(small_site, translator_client):
    import io

    from django.core.management import call_command

    from editorial.models import TranslationState

    provider = Provider.objects.create(
        name="Old", slug="old", description_en="Old line.", description_es="Línea."
    )
    TranslationState.objects.all().delete()  # as if the content predated the editorial app
    call_command("baseline_translation_states", stdout=io.StringIO())
    assert TranslationState.objects.count() == Page.objects.live().filter(depth__gt=1).count() + 1
    call_command("baseline_translation_states", stdout=io.StringIO())
    assert TranslationState.objects.count() == Page.objects.live().filter(depth__gt=1).count() + 1
    provider.description_en = "New line."
    provider.save()
    assert _rows(translator_client)[_key(provider)][0] == "outdated"
