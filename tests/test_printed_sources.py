"""Sources, footnotes, the Dataset's creators and the "Demo data" banner follow what the page prints.

A page showing only benchmark speeds (no price column) from a real (non-demo) source must not say it
shows demo data, footnote or list the providers' price pages, nor name those providers as creators,
although the site holds (demo) prices for the same endpoints, nor give their terms as the data's licence.
"""

import json

import pytest
from bs4 import BeautifulSoup
from pyld import jsonld

from benchmarks.models import LanguageModel, Price, Source
from tests.test_dataset_ld import LOADER, ids


@pytest.fixture
def speeds_only_page(demo_site):
    from articles.models import ArticlePage, ArticleSource

    benchmark = Source.objects.get(title_en="GLM-5.3 providers")
    Source.objects.filter(pk=benchmark.pk).update(is_demo=False)
    model = LanguageModel.objects.get(slug="glm-5-3")
    assert Price.objects.filter(endpoint__model=model, source__is_demo=True).exists()
    table = {
        "model": model.pk, "source": benchmark.pk,
        "columns": [{"field": "output_speed_median", "difference_to_leader": False}],
        "sort_metric": "output_speed_median", "name_style": "short", "show_api_model": False,
        "cite_sources": True, "caption": "",
    }
    body = [{"type": "provider_table", "value": table}, {"type": "sources", "value": {"heading": ""}}]
    page = ArticlePage(slug_en="glm-speeds", slug_es="velocidades-glm", title_en="GLM-5.3 speeds",
                       title_es="Velocidades de GLM-5.3", body_en=body, body_es=body)
    demo_site.add_child(instance=page)
    ArticleSource.objects.create(page=page, source=benchmark, sort_order=0)
    page.save_revision().publish()
    return benchmark


@pytest.mark.parametrize("url", ["/en/glm-speeds/", "/es/velocidades-glm/"])
def test_a_page_without_prices_shows_no_price_source_and_no_demo_banner(client, speeds_only_page, url):
    response = client.get(url)
    assert response.status_code == 200
    soup = BeautifulSoup(response.content, "html.parser")
    assert soup.select("table.provider-table tbody tr"), "the table shows no rows: the test proves nothing"
    assert soup.select_one(".demo-data") is None, "the Demo data banner on a page that prints no demo figure"
    listed = [item.get_text(" ", strip=True) for item in soup.select("section.sources li")]
    # The source's title in the page's language (the demo sources have Spanish titles).
    assert listed == [{"/en/": "Artificial Analysis · GLM-5.3 providers",
                       "/es/": "Artificial Analysis · proveedores de GLM-5.3"}[url[:4]]], listed
    markers = {link["href"] for link in soup.select("sup.fn a")}
    assert markers == {"#source-1"}, markers
    dataset = next(
        data for data in (json.loads(script.string) for script in soup.select('script[type="application/ld+json"]'))
        if data.get("@type") == "Dataset"
    )
    assert [creator["name"] for creator in dataset["creator"]] == ["Artificial Analysis"]
    # Nor their terms pages as the data's licence: only the benchmark's, whose figures the page prints.
    [expanded] = jsonld.expand(dataset, {"documentLoader": LOADER})
    assert ids(expanded, "license") == ["https://artificialanalysis.ai/terms-of-use"]
