"""A source's title is printed after its publisher ("publisher · title"): the form shows that line and
refuses a title that repeats the publisher (benchmarks/admin/source_title.py)."""

import pytest
from bs4 import BeautifulSoup

from benchmarks.models import Source
from tests.admin_forms import form_data

ADD_URL = "/admin/snippets/benchmarks/source/add/"
PUBLISHER = "openbenchmarks-labs"


def _post(client, title, publisher=PUBLISHER):
    data = form_data(client.get(ADD_URL).text, "w-editor-form")
    data.update(
        {"title_en": title, "publisher": publisher, "url": "https://example.com/run", "kind": "first_party"}
    )
    return client.post(ADD_URL, data)


def _title_errors(response):
    soup = BeautifulSoup(response.content, "html.parser")
    field = soup.select_one("[data-field-wrapper]:has(#id_title_en)") or soup
    return " ".join(error.get_text(" ", strip=True) for error in field.select(".error-message"))


@pytest.mark.django_db
@pytest.mark.parametrize("title", [f"{PUBLISHER} · GLM run", "OpenBenchmarks-Labs GLM run", PUBLISHER])
def test_a_title_starting_with_the_publisher_is_refused(editor_client, title):
    response = _post(editor_client, title)
    assert response.status_code == 200
    assert "leave “openbenchmarks-labs” out of the title" in _title_errors(response)
    assert not Source.objects.exists()


@pytest.mark.django_db
def test_the_refusal_is_in_spanish_for_a_spanish_editor(editor_client, django_user_model):
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(django_user_model.objects.get(username="editor"))
    profile.preferred_language = "es"
    profile.save()
    response = _post(editor_client, f"{PUBLISHER} run")
    assert "Los lectores ven el editor antes del título" in _title_errors(response)
    assert "Título tal como lo ven los lectores" in response.content.decode()


@pytest.mark.django_db
def test_a_title_that_merely_shares_a_prefix_is_saved_and_shown_after_the_publisher(editor_client):
    assert _post(editor_client, "openbenchmarks-labsX nightly run").status_code == 302
    _post(editor_client, "GLM-5.3-Flash provider run")
    assert str(Source.objects.get(title_en="GLM-5.3-Flash provider run")) == f"{PUBLISHER} · GLM-5.3-Flash provider run"


@pytest.mark.django_db
def test_the_form_shows_the_title_as_readers_see_it(editor_client):
    source = Source.objects.create(title_en="Forge token prices", publisher="CoreWeave", url="https://example.com")
    soup = BeautifulSoup(editor_client.get(f"/admin/snippets/benchmarks/source/edit/{source.pk}/").content,
                         "html.parser")
    preview = soup.select_one("[data-source-reader-title]")
    assert preview.select_one("output").get_text() == "CoreWeave · Forge token prices"
    assert "Title as readers see it" in preview.get_text()
    assert soup.find("script", src=lambda src: src and src.endswith("benchmarks/js/source_title.js"))
