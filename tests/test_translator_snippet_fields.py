"""Translators cannot open the provider and source editors (their Spanish is written in the translation
workspace); the form-level restriction to Spanish fields stays as a second guard. Editors change everything."""

import pytest
from django.contrib.auth.models import Group
from wagtail.admin.panels import FieldPanel, ObjectList

from benchmarks.models import Provider, Source
from editorial.forms import TranslatorRestrictedSnippetForm
from editorial.permissions import restrict_to_translatable_fields
from editorial.roles import EDITORS, TRANSLATORS


def _user(django_user_model, username, *groups):
    user = django_user_model.objects.create_user(username, f"{username}@example.com", "pw-not-used-123")
    for group in groups:
        user.groups.add(Group.objects.get(name=group))
    return user


def _provider_form_class():
    panels = [
        FieldPanel(name) for name in ("name", "slug", "website", "kind", "description_en", "description_es")
    ]
    return (
        ObjectList(panels, base_form_class=TranslatorRestrictedSnippetForm)
        .bind_to_model(Provider)
        .get_form_class()
    )


@pytest.fixture
def provider(db):
    return Provider.objects.create(
        name="Acme",
        slug="acme",
        website="https://acme.example/",
        description_en="Fast GPUs.",
        description_es="GPU.",
    )


def _attempt_everything(form_class, provider, user):
    data = {
        "name": "Renamed",
        "slug": "renamed",
        "website": "https://evil.example/",
        "kind": Provider.Kind.CLOUD,
        "description_en": "Changed English.",
        "description_es": "GPU rápidas.",
    }
    form = form_class(data, instance=provider, for_user=user)
    assert form.is_valid(), form.errors
    form.save()
    provider.refresh_from_db()
    return form


def test_translator_saves_only_spanish_fields_of_a_provider(provider, django_user_model):
    translator = _user(django_user_model, "traductora", TRANSLATORS)
    form = _attempt_everything(_provider_form_class(), provider, translator)
    assert form.translator_disabled_fields == {"name", "slug", "website", "kind", "description_en"}
    assert provider.description_es == "GPU rápidas."
    assert (provider.name, provider.slug, provider.website, provider.kind, provider.description_en) == (
        "Acme",
        "acme",
        "https://acme.example/",
        Provider.Kind.INFERENCE_HOST,
        "Fast GPUs.",
    )
    html = form.as_p()
    assert 'name="description_es"' in html
    assert 'name="name"' in html and "disabled" in str(form["name"])
    assert "disabled" not in str(form["description_es"])


@pytest.mark.parametrize("groups", [(EDITORS,), (TRANSLATORS, EDITORS), ()])
def test_editors_and_others_are_not_restricted(provider, django_user_model, groups):
    user = _user(django_user_model, "someone", *groups)
    form = _attempt_everything(_provider_form_class(), provider, user)
    assert form.translator_disabled_fields == set()
    assert (provider.name, provider.description_en, provider.description_es) == (
        "Renamed",
        "Changed English.",
        "GPU rápidas.",
    )


def test_restrict_applies_to_any_model_form_of_a_source(db, django_user_model):
    from django import forms

    class SourceForm(forms.ModelForm):
        class Meta:
            model = Source
            fields = ["title_en", "title_es", "attribution_en", "attribution_es", "publisher", "licence"]

    translator = _user(django_user_model, "traductor", TRANSLATORS)
    form = SourceForm()
    disabled = restrict_to_translatable_fields(form, translator)
    assert disabled == {"title_en", "attribution_en", "publisher", "licence"}
    assert not form.fields["title_es"].disabled and not form.fields["attribution_es"].disabled


def test_superuser_is_never_restricted(provider, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw-not-used-123")
    admin.groups.add(Group.objects.get(name=TRANSLATORS))
    assert (
        restrict_to_translatable_fields(_provider_form_class()(instance=provider, for_user=admin), admin)
        == set()
    )


# --- through the snippet admin (benchmarks/admin/ builds its forms on TranslatorRestrictedSnippetForm) ---


def _admin_client(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def _edit_url(obj):
    from django.urls import reverse

    return reverse(type(obj).snippet_viewset.get_url_name("edit"), args=[obj.pk])


def _refused(response):
    return response.status_code == 403 or (response.status_code == 302 and response["Location"] == "/admin/")


def test_translator_edits_a_provider_in_the_admin_and_only_spanish_changes(provider, django_user_model):
    """The snippet editor is closed to translators (GET and a forged POST); their Spanish description is
    written in the workspace and waits there for an editor's approval; English is never touched."""
    from .admin_forms import form_data
    from .workspace_support import review, translate

    editor = _admin_client(_user(django_user_model, "editora", EDITORS))
    data = form_data(editor.get(_edit_url(provider)).text, "w-editor-form")
    assert "description_en" in data and "description_es" not in data  # English only, even for editors
    data.update(description_es="GPU rápidas.", name="Renamed", description_en="Changed English.")
    revisions = provider.revisions.count()

    client = _admin_client(_user(django_user_model, "traductora", TRANSLATORS))
    assert _refused(client.get(_edit_url(provider)))
    for action in ("action-submit", "action-publish"):
        assert _refused(client.post(_edit_url(provider), {**data, action: action}))
    provider.refresh_from_db()
    assert (provider.name, provider.description_en, provider.description_es) == ("Acme", "Fast GPUs.", "GPU.")
    assert provider.revisions.count() == revisions

    response = translate(client, provider, {"description": "GPU rápidas."}, action="submit")
    assert response.status_code == 302
    provider.refresh_from_db()
    # submitted, not approved: readers still see the old text, and no revision carries the new one
    assert provider.description_es == "GPU."
    assert all(revision.content.get("description_es") != "GPU rápidas." for revision in provider.revisions.all())

    # the editor approves: now readers see the Spanish text, and only it changed
    assert review(editor, provider).status_code == 302
    provider.refresh_from_db()
    assert (provider.name, provider.description_en, provider.description_es) == ("Acme", "Fast GPUs.", "GPU rápidas.")


def test_translator_cannot_add_delete_or_touch_data_values(provider, django_user_model):
    from datetime import date
    from decimal import Decimal

    from django.urls import reverse
    from django.utils import timezone

    from benchmarks.models import Endpoint, LanguageModel, Measurement, Price, Snapshot

    source = Source.objects.create(title_en="Prices", publisher="Acme", url="https://acme.example/prices")
    model = LanguageModel.objects.create(name="M", slug="m")
    endpoint = Endpoint.objects.create(provider=provider, model=model)
    price = Price.objects.create(
        endpoint=endpoint,
        input_per_m=1,
        output_per_m=2,
        currency="USD",
        effective_date=date(2026, 1, 1),
        source=source,
    )
    snapshot = Snapshot.objects.create(source=source, measured_at=timezone.now())
    Measurement.objects.create(
        snapshot=snapshot, endpoint=endpoint, metric="output_speed_median", value=Decimal("100")
    )

    translator = _admin_client(_user(django_user_model, "traductor", TRANSLATORS))
    editor = _admin_client(_user(django_user_model, "editor-data", EDITORS))
    for obj in (price, snapshot):
        assert _refused(translator.get(_edit_url(obj)))
        assert _refused(translator.post(_edit_url(obj), {}))
        assert editor.get(_edit_url(obj)).status_code == 200
    price.refresh_from_db()
    assert price.input_per_m == 1 and Measurement.objects.get().value == Decimal("100")
    assert _refused(translator.get(reverse(Provider.snippet_viewset.get_url_name("add"))))
    assert _refused(
        translator.post(reverse(Provider.snippet_viewset.get_url_name("delete"), args=[provider.pk]))
    )
    assert Provider.objects.filter(pk=provider.pk).exists()


def test_a_page_form_built_for_a_translator_changes_nothing(db, django_user_model):
    """The page form applies editorial's rule through localized.form_access (the pages do not import
    editorial, tests/test_layers.py); without a registered rule it refuses to build. The page form
    has no Spanish fields (their Spanish comes from the workspace), so a translator's is all disabled."""
    from django.core.exceptions import ImproperlyConfigured

    from articles.models import ArticlePage
    from localized import form_access

    form_class = ArticlePage.get_edit_handler().get_form_class()
    translator = _user(django_user_model, "traductora", TRANSLATORS)
    form = form_class(instance=ArticlePage(title="A page", slug="a-page"), for_user=translator)
    assert {"title_en", "slug_en", "body_en"} <= set(form.fields)
    assert all(field.disabled for field in form.fields.values())
    editor = _user(django_user_model, "editora", EDITORS)
    assert not form_class(instance=ArticlePage(title="A page", slug="a-page"), for_user=editor).fields[
        "title_en"
    ].disabled

    rule, form_access._restriction = form_access._restriction, None
    try:
        with pytest.raises(ImproperlyConfigured, match="editorial"):
            form_class(instance=ArticlePage(title="A page", slug="a-page"), for_user=translator)
    finally:
        form_access._restriction = rule
