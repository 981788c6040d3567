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
            "cite_sources": "on", "caption": ""}


def test_a_price_from_an_unlisted_source_does_not_block_a_spanish_title_change(client):
    glm = glm_data()
    page = make_article([table(glm)], sources=[glm["source"], glm["pricing"]], title="GLM page")
    PriceFactory(endpoint=glm["novita"], source=new_price_source(), effective_date=timezone.localdate(),
                 input_per_m=Decimal("0.50"), output_per_m=Decimal("2.00"))
    bump_data_generation()
    user = get_user_model().objects.create_superuser("fixer", "fixer@example.com", "pw-fixer-123")
    client.force_login(user)
    listed = list(page.page_sources.order_by("sort_order"))
    data = nested_form_data({
        "title_en": page.title_en, "slug_en": page.slug_en, "title_es": "Página GLM (revisada)",
        "slug_es": page.slug_es, "summary_en": "", "summary_es": "",
        "body_en": streamfield([("provider_table", table_form(glm))]),
        "body_es": streamfield([("provider_table", table_form(glm)), ("sources", {"heading": ""})]),
        "publisher_disclosure_en": rich_text(""), "publisher_disclosure_es": rich_text(""),
        "show_meta_line": "on",
        "page_sources": inline_formset([{"id": item.pk, "source": item.source_id} for item in listed],
                                       initial=len(listed)),
        "action-publish": "action-publish",
    })
    response = client.post(f"/admin/pages/{page.pk}/edit/", data)
    assert response.status_code == 302, [e.text for e in BeautifulSoup(response.content, "html.parser").select(".error-message")]
    page = ArticlePage.objects.get(pk=page.pk)
    assert page.title_es == "Página GLM (revisada)"

    soup = BeautifulSoup(client.get(f"/es/{page.slug_es}/").content, "html.parser")
    items = soup.select("section.sources ol li")
    assert [li["id"] for li in items] == ["source-1", "source-2", "source-3"]
    assert "Novita AI · pricing (new page)" in items[-1].text
    novita = next(tr for tr in soup.select("table tbody tr") if "Novita" in tr.text)
    assert novita.select('a[href="#source-3"]'), "the new price carries footnote 3"
    assert "3 fuentes" in soup.select_one("p.meta").text


def test_the_review_list_says_a_new_source_appeared(django_capture_on_commit_callbacks):
    glm = glm_data()
    make_article([table(glm)], sources=[glm["source"], glm["pricing"]], title="GLM page")
    new_source = new_price_source()
    snapshot = SnapshotFactory(source=new_source, measured_at=timezone.now() - datetime.timedelta(minutes=5))
    Price.objects.create(endpoint=glm["novita"], source=new_source, snapshot=snapshot, currency="USD",
                         input_per_m=Decimal("0.50"), output_per_m=Decimal("2.00"),
                         effective_date=timezone.localdate())
    with django_capture_on_commit_callbacks(execute=True):  # the review runs after the commit
        snapshot.publish()
    items = FigureChange.objects.filter(change_set__snapshot=snapshot, figure__in=["new source", "fuente nueva"])
    assert {item.language for item in items} == {"en", "es"}
    english = items.get(language="en")
    assert english.place == "Sources"
    assert "Novita AI · pricing (new page)" in english.new_text
    assert "numbers it 3" in english.new_text
    # published again unchanged: nothing new to say
    assert not FigureChange.objects.exclude(change_set__snapshot=snapshot).filter(figure="new source").exists()
