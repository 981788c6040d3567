"""A provider table's difference columns can be named one by one: two "Δ vs fastest" columns (speed and
first chunk) were indistinguishable. Left empty, the heading stays "Δ vs <leader>"."""

import copy

import pytest
from bs4 import BeautifulSoup

from benchmarks.metrics import get_metric
from benchmarks.models import LanguageModel, Source


@pytest.fixture
def table_page(demo_site):
    from articles.models import ArticlePage

    model = LanguageModel.objects.get(slug="glm-5-3")
    table = {
        "model": model.pk, "source": Source.objects.get(title_en="GLM-5.3 providers").pk,
        "columns": [
            {"field": "output_speed_median", "difference_to_leader": True,
             "difference_label_en": "Speed gap to the fastest"},
            {"field": "ttfc_median", "difference_to_leader": True, "difference_label_en": ""},
        ],
        "sort_metric": "output_speed_median", "name_style": "short", "show_api_model": False,
        "cite_sources": False, "caption": "",
    }
    spanish = copy.deepcopy(table)
    spanish["columns"][0]["difference_label_en"] = "Distancia en velocidad al más rápido"
    page = ArticlePage(
        slug_en="glm-gaps", slug_es="distancias-glm", title_en="GLM-5.3 gaps", title_es="Distancias de GLM-5.3",
        body_en=[{"type": "provider_table", "value": table}], body_es=[{"type": "provider_table", "value": spanish}],
    )
    demo_site.add_child(instance=page)
    page.save_revision().publish()
    return page


@pytest.mark.parametrize(
    ("url", "lang", "named"),
    [("/en/glm-gaps/", "en", "Speed gap to the fastest"), ("/es/distancias-glm/", "es", "Distancia en velocidad al más rápido")],
)
def test_each_difference_column_has_its_own_heading(client, table_page, url, lang, named):
    from django.utils import translation

    from articles.blocks.provider_table import difference_header

    response = client.get(url)
    assert response.status_code == 200
    headers = [th.get_text(" ", strip=True) for th in BeautifulSoup(response.content, "html.parser").select(
        "table.provider-table thead th")]
    with translation.override(lang):
        default = difference_header(get_metric("ttfc_median"))
    assert headers[2] == named and headers[4] == default, headers
    assert len(set(headers)) == len(headers), f"two columns share a heading: {headers}"
