"""New data never blocks an unrelated save: a price from a source the page does not list yet is
footnoted after the list on the live page, and the review list tells editors it appeared."""

import datetime
from decimal import Decimal

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth import get_user_model
from django.utils import timezone
from wagtail.test.utils.form_data import inline_formset, nested_form_data, rich_text, streamfield

from articles.models import ArticlePage
from benchmarks.cache import bump_data_generation
from benchmarks.models import Price, Source
from reviews.models import FigureChange
from tests.factories import PriceFactory, SnapshotFactory, SourceFactory
from tests.figures_support import glm_data, make_article, table
from tests.workspace_support import review, translate, workspace_url

pytestmark = pytest.mark.django_db


def new_price_source():
    return SourceFactory(publisher="Novita AI", title="pricing (new page)", kind=Source.Kind.PRICE_LIST,
                         url="https://novita.example.com/pricing-new")


def table_form(glm):
    columns = [{"field": key, "difference_to_leader": ""} for key in ("output_speed_median", "ttfc_median", "price")]
    return {"model": glm["model"].pk, "source": glm["source"].pk,
            "columns": {"count": 3, **{f"{i}-value": c for i, c in enumerate(columns)},
                        **{f"{i}-deleted": "" for i in range(3)}, **{f"{i}-order": i for i in range(3)}},
            "sort_metric": "output_speed_median", "name_style": "short", "show_api_model": "",
            "cite_sources": "on", "caption": rich_text("")}


def test_a_price_from_an_unlisted_source_does_not_block_a_spanish_title_change(client):
    glm = glm_data()
    page = make_article([table(glm)], sources=[glm["source"], glm["pricing"]], title="GLM page")
    PriceFactory(endpoint=glm["novita"], source=new_price_source(), effective_date=timezone.localdate(),
                 input_per_m=Decimal("0.50"), output_per_m=Decimal("2.00"))
    bump_data_generation()
    user = get_user_model().objects.create_superuser("fixer", "fixer@example.com", "pw-fixer-123")
    client.force_login(user)
    listed = list(page.page_sources.order_by("sort_order"))
    # The editor publishes from the page form (English fields only; the Spanish body follows it)…
    data = nested_form_data({
        "title_en": page.title_en, "slug_en": page.slug_en, "summary_en": rich_text(""),
        "body_en": streamfield([("provider_table", table_form(glm)), ("sources", {"heading": ""})]),
        "publisher_disclosure_en": rich_text(""),
        "show_meta_line": "on", "statement_policy": "mark",
        "page_sources": inline_formset([{"id": item.pk, "source": item.source_id} for item in listed],
                                       initial=len(listed)),
        "action-publish": "action-publish",
    })
    response = client.post(f"/admin/pages/{page.pk}/edit/", data)
    assert response.status_code == 302, [e.text for e in BeautifulSoup(response.content, "html.parser").select(".error-message")]
    # …and the Spanish title is changed in the translation workspace and approved, which republishes it.
    assert translate(client, page, {"title": "Página GLM (revisada)"}, action="submit").status_code == 302
    approved = review(client, page)
    assert approved.status_code == 302 and approved["Location"] == workspace_url(page)
    page = ArticlePage.objects.get(pk=page.pk)
    assert page.title_es == "Página GLM (revisada)"

    soup = BeautifulSoup(client.get(f"/es/{page.slug_es}/").content, "html.parser")
    items = soup.select("section.sources ol li")
    assert [li["id"] for li in items] == ["source-1", "source-2", "source-3"]
    assert "Novita AI · pricing (new page)" in items[-1].text
    novita = next(tr for tr in soup.select("table tbody tr") if "Novita" in tr.text)
    assert novita.select('a[href="#source-3"]'), "the new price carries footnote 3"
    assert "3 fuentes" in soup.select_one("p.meta").text


def publish_price_from_a_new_source(capture_on_commit):
    glm = glm_data()
    page = make_article([table(glm)], sources=[glm["source"], glm["pricing"]], title="GLM page")
    new_source = new_price_source()
    snapshot = SnapshotFactory(source=new_source, measured_at=timezone.now() - datetime.timedelta(minutes=5))
    Price.objects.create(endpoint=glm["novita"], source=new_source, snapshot=snapshot, currency="USD",
                         input_per_m=Decimal("0.50"), output_per_m=Decimal("2.00"),
                         effective_date=timezone.localdate())
    with capture_on_commit(execute=True):  # the review runs after the commit
        snapshot.publish()
    return page, snapshot


def test_the_review_list_says_a_new_source_appeared(django_capture_on_commit_callbacks):
    page, snapshot = publish_price_from_a_new_source(django_capture_on_commit_callbacks)
    items = FigureChange.objects.filter(change_set__snapshot=snapshot, kind=FigureChange.Kind.NEW_SOURCE)
    assert {item.language for item in items} == {"en", "es"}
    english, spanish = items.get(language="en"), items.get(language="es")
    assert (english.place, english.figure, english.old_text) == (
        "Sources", "Novita AI · pricing (new page)", "not in the page's list"
    )
    assert english.new_text == (
        "Cited by new data; the page numbers it 3, after its list. Add it under Sources to put it where it belongs."
    )
    assert english.get_kind_display() == "New source cited"
    assert (spanish.place, spanish.old_text) == ("Fuentes", "no está en la lista de la página")
    assert "la página le asigna el número 3" in spanish.new_text
    # the new price is also a changed value on the page; that item stays a value change
    assert FigureChange.objects.filter(change_set__snapshot=snapshot, kind="value").exists()
    # published again unchanged: nothing new to say
    assert not FigureChange.objects.exclude(change_set__snapshot=snapshot).filter(kind="new_source").exists()


def test_the_review_page_shows_a_new_source_apart_from_changed_values(editor_client, django_capture_on_commit_callbacks):
    page, snapshot = publish_price_from_a_new_source(django_capture_on_commit_callbacks)
    soup = BeautifulSoup(editor_client.get("/admin/reviews/changes/").content, "html.parser")
    rows = soup.select('tr[data-kind="new_source"]')
    assert len(rows) == 2  # one per language
    for row in rows:
        assert "figure-change--new-source" in row["class"]
        tag = row.select_one(".w-status--label")
        assert tag is not None
    english = next(row for row in rows if row["data-language"] == "en")
    assert "New source cited" in english.text and "Novita AI · pricing (new page)" in english.text
    assert "Add it under Sources" in english.select_one("td.now").text
    for row in soup.select('tr[data-kind="value"]'):
        assert "New source cited" not in row.text


def test_a_spanish_speaking_editor_reads_the_new_source_item_in_spanish(editor_client, django_capture_on_commit_callbacks):
    from wagtail.users.models import UserProfile

    publish_price_from_a_new_source(django_capture_on_commit_callbacks)
    user = get_user_model().objects.get(username="editor")
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "es"
    profile.save()
    soup = BeautifulSoup(editor_client.get("/admin/reviews/changes/").content, "html.parser")
    spanish = soup.select_one('tr[data-kind="new_source"][data-language="es"]')
    assert "Fuente nueva citada" in spanish.text
    assert "Añádela en Fuentes" in spanish.text


def test_items_stored_before_the_new_kind_become_new_source_items(django_capture_on_commit_callbacks):
    """Items recorded before the kind existed said "new source" in their figure and were values."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("reviews.migrations.0004_new_source_review_items")
    page, snapshot = publish_price_from_a_new_source(django_capture_on_commit_callbacks)
    items = FigureChange.objects.filter(kind="new_source")
    old_figures = {"en": "new source", "es": "fuente nueva"}
    for item in items:
        item.kind, item.figure = "value", old_figures[item.language]
        item.save()
    values_before = FigureChange.objects.filter(kind="value").exclude(figure__in=old_figures.values()).count()
    migration.mark_new_sources(apps, None)
    assert FigureChange.objects.filter(kind="new_source").count() == 2
    assert FigureChange.objects.filter(kind="value").count() == values_before
