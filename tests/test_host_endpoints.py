""""Add a host's endpoints": a new host's provider × models × tiers from one admin form."""

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth.models import Group, Permission
from django.contrib.messages import get_messages
from django.urls import reverse
from wagtail.models import ModelLogEntry

from benchmarks.models import Endpoint, Provider

from .factories import EndpointFactory, LanguageModelFactory, ProviderFactory

pytestmark = pytest.mark.django_db

FORM_URL = "wagtailsnippets_benchmarks_endpoint:add_host"


def form_url():
    return reverse(FORM_URL)


def form_data(chosen, **overrides):
    data = {
        "provider": "",
        "new_provider_name": "",
        "new_provider_slug": "",
        "new_provider_kind": "inference_host",
        "new_provider_website": "",
        "models": [m.pk for m in chosen],
        "standard_tier": "on",
        "other_tiers": "Fast",
        "deployment": "serverless",
        "api_model_id": "",
        "api_docs_url": "",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def said(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.fixture
def models():
    return [LanguageModelFactory(name="GLM-5.3", slug="glm-5-3"), LanguageModelFactory(name="DeepSeek V4", slug="deepseek-v4")]


def test_the_endpoint_listing_links_to_the_form(editor_client):
    listing = editor_client.get(reverse("wagtailsnippets_benchmarks_endpoint:list"))
    assert form_url() in listing.text
    assert "Add a host&#x27;s endpoints" in listing.text or "Add a host's endpoints" in listing.text


def test_from_a_listing_of_one_host_the_form_starts_with_that_host(editor_client):
    fireworks = ProviderFactory(name="Fireworks")
    listing = editor_client.get(reverse("wagtailsnippets_benchmarks_endpoint:list"), {"provider": fireworks.pk})
    link = f"{form_url()}?provider={fireworks.pk}"
    assert f'href="{link}"' in listing.text
    form = editor_client.get(link)
    assert f'<option value="{fireworks.pk}" selected>Fireworks</option>' in form.text


def test_two_models_in_two_tiers_make_four_endpoints_of_a_new_provider(editor_client, models):
    response = editor_client.post(
        form_url(),
        form_data(models, new_provider_name="Cerebras Cloud", api_model_id="cb/{model}",
                  api_docs_url="https://docs.cerebras.example/api"),
    )
    provider = Provider.objects.get(name="Cerebras Cloud")
    assert provider.slug == "cerebras-cloud"
    assert response.status_code == 302
    assert response["Location"] == reverse("wagtailsnippets_benchmarks_endpoint:list") + f"?provider={provider.pk}"
    endpoints = Endpoint.objects.filter(provider=provider).order_by("model__name", "tier")
    assert [(e.model.slug, e.tier, e.api_model_id) for e in endpoints] == [
        ("deepseek-v4", "", "cb/deepseek-v4"),
        ("deepseek-v4", "Fast", "cb/deepseek-v4"),
        ("glm-5-3", "", "cb/glm-5-3"),
        ("glm-5-3", "Fast", "cb/glm-5-3"),
    ]
    assert {e.api_docs_url for e in endpoints} == {"https://docs.cerebras.example/api"}
    messages = said(response)
    assert "Provider “Cerebras Cloud” created." in messages
    assert any(m.startswith("4 endpoints created: Cerebras Cloud · DeepSeek V4") for m in messages), messages
    # the admin's history shows who created them
    created = ModelLogEntry.objects.filter(action="wagtail.create").values_list("content_type__model", "object_id")
    assert sorted(created) == sorted([("endpoint", str(e.pk)) for e in endpoints] + [("provider", str(provider.pk))])
    history = editor_client.get(reverse("wagtailsnippets_benchmarks_endpoint:history", args=[endpoints[0].pk]))
    text = " ".join(BeautifulSoup(history.content, "html.parser").select_one("main").get_text(" ").split())
    assert "Created editor" in text, text

    # the listing the editor lands on shows them
    listing = editor_client.get(response["Location"])
    for endpoint in endpoints:
        assert f"/admin/snippets/benchmarks/endpoint/edit/{endpoint.pk}/" in listing.text


def test_submitting_again_creates_nothing_and_says_they_exist(editor_client, models):
    provider = ProviderFactory(name="Fireworks")
    data = form_data(models, provider=provider.pk)
    editor_client.post(form_url(), data, follow=True)  # the listing shows (and uses up) its messages
    assert Endpoint.objects.filter(provider=provider).count() == 4
    again = editor_client.post(form_url(), data)
    assert again.status_code == 302
    assert Endpoint.objects.filter(provider=provider).count() == 4
    messages = said(again)
    assert "No endpoint was created." in messages
    assert any(m.startswith("4 endpoints already existed and were left as they were:") for m in messages), messages
    assert not any("created:" in m for m in messages)


def test_existing_combinations_are_skipped_and_the_rest_created(editor_client, models):
    provider = ProviderFactory(name="Fireworks")
    # "fast" in another case is the same tier, as the importers read it
    kept = EndpointFactory(provider=provider, model=models[0], tier="fast", api_model_id="keep-me")
    response = editor_client.post(form_url(), form_data(models, provider=provider.pk))
    assert Endpoint.objects.filter(provider=provider).count() == 4
    kept.refresh_from_db()
    assert kept.api_model_id == "keep-me"
    messages = said(response)
    assert any(m.startswith("3 endpoints created:") for m in messages), messages
    assert "1 endpoint already existed and was left as it was: Fireworks (fast) · GLM-5.3." in messages


@pytest.mark.parametrize(
    "overrides, field, message",
    [
        ({}, "provider", "Pick a provider or name a new one."),
        ({"new_provider_name": "Fireworks"}, "new_provider_name", "already exists; pick it above."),
        ({"new_provider_name": "Fireworks AI", "new_provider_slug": "FIREWORKS"}, "new_provider_slug",
         "already exists; pick it above."),
        ({"new_provider_name": "Groq", "models": None}, "models", "Tick at least one model."),
        ({"new_provider_name": "Groq", "standard_tier": None, "other_tiers": ""}, "standard_tier",
         "Tick the standard tier or name at least one other tier."),
        ({"new_provider_name": "Groq", "other_tiers": "Fast, " + "x" * 51}, "other_tiers", "longer than 50"),
        ({"new_provider_name": "Groq", "other_tiers": "Standard"}, "other_tiers", "Tick “Standard tier”"),
        ({"new_provider_name": "Groq", "new_provider_website": "not a url"}, "new_provider_website", "valid URL"),
    ],
)
def test_invalid_input_writes_nothing_and_says_why(editor_client, models, overrides, field, message):
    ProviderFactory(name="Fireworks")
    before = (Provider.objects.count(), Endpoint.objects.count(), ModelLogEntry.objects.count())
    response = editor_client.post(form_url(), form_data(models, **overrides))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors and any(message in e for e in errors[field]), errors
    assert message.replace("“", "&#x201c;") in response.text or message in response.text
    assert "Nothing was created" in response.text
    assert (Provider.objects.count(), Endpoint.objects.count(), ModelLogEntry.objects.count()) == before


def test_a_clash_found_while_writing_rolls_back_the_new_provider(editor_client, models, monkeypatch):
    """Someone else creates one of the endpoints between the check and the write."""
    from django.db import IntegrityError

    def collide(*args, **kwargs):
        raise IntegrityError("endpoint_unique_provider_model_tier")

    monkeypatch.setattr(Endpoint.objects, "bulk_create", collide)
    response = editor_client.post(form_url(), form_data(models, new_provider_name="Groq"))
    assert response.status_code == 200
    assert "Someone created this provider or some of these endpoints meanwhile" in response.text
    assert not Provider.objects.filter(name="Groq").exists()
    assert not Endpoint.objects.exists()


def member_of(django_user_model, username, role):
    user = django_user_model.objects.create_user(username, f"{username}@example.com", "pw-member-123")
    user.groups.add(Group.objects.get(name=role))
    return user


def test_a_member_of_the_editors_role_adds_a_hosts_endpoints(client, django_user_model, models):
    client.force_login(member_of(django_user_model, "editora", "Editors"))
    assert form_url() in client.get(reverse("wagtailsnippets_benchmarks_endpoint:list")).text
    response = client.post(form_url(), form_data(models, new_provider_name="Groq"))
    assert response.status_code == 302
    assert Endpoint.objects.filter(provider__name="Groq").count() == 4


def test_a_translator_neither_sees_nor_opens_the_form(client, django_user_model):
    client.force_login(member_of(django_user_model, "traductora", "Translators"))
    refused = client.get(form_url())
    assert refused.status_code == 403 or (refused.status_code == 302 and refused["Location"] == "/admin/")


def test_an_editor_without_the_right_to_add_providers_must_pick_one(client, django_user_model, models):
    user = django_user_model.objects.create_user("clerk", "clerk@example.com", "pw-clerk-123")
    group = Group.objects.create(name="Endpoint clerks")
    group.permissions.add(
        Permission.objects.get(codename="access_admin"),
        Permission.objects.get(codename="add_endpoint"),
        Permission.objects.get(codename="view_endpoint"),
    )
    user.groups.add(group)
    client.force_login(user)
    response = client.post(form_url(), form_data(models, new_provider_name="Groq"))
    assert "You may not add providers" in response.text
    assert not Provider.objects.exists()


@pytest.mark.parametrize("count", [2, 12])
def test_queries_do_not_grow_with_the_number_of_models(editor_client, count, django_assert_max_num_queries):
    provider = ProviderFactory(name="Fireworks")
    models = [LanguageModelFactory(name=f"Model {n:02}") for n in range(count)]
    EndpointFactory(provider=provider, model=models[0])  # one skipped, the rest created
    with django_assert_max_num_queries(8):
        page = editor_client.get(form_url())
    assert page.status_code == 200 and page.text.count('name="models"') == count
    # 13: the POST runs in one transaction (a savepoint here, inside the test's) with the content
    # version bump that used to run after it (articles/publishing.py); constant in the models.
    with django_assert_max_num_queries(13):
        response = editor_client.post(form_url(), form_data(models, provider=provider.pk))
    assert response.status_code == 302
    assert Endpoint.objects.filter(provider=provider).count() == 2 * count


def test_a_spanish_speaking_editor_reads_the_form_in_spanish(editor_client, models):
    from wagtail.users.models import UserProfile

    user = editor_client.get(form_url()).wsgi_request.user
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "es"
    profile.save()
    page = editor_client.get(form_url())
    assert "Añadir los endpoints de un proveedor" in page.text
    assert "Crear endpoints" in page.text and "Otros niveles" in page.text
    response = editor_client.post(form_url(), form_data(models, new_provider_name="Groq"), follow=True)
    assert "Proveedor «Groq» creado." in response.text
    assert "4 endpoints creados:" in response.text
