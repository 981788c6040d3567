"""Rendering an article costs the same number of queries with 10 or 100 providers per model,
and with one or many data blocks: block values are computed in bulk."""

from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from articles.models import ArticlePage, ArticleSource
from tests.factories import (
    EndpointFactory,
    LanguageModelFactory,
    PriceFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)

pytestmark = pytest.mark.django_db


def build_article(home, size, copies=1):
    models, sources, providers = [], [], []
    pricing = SourceFactory(kind="price_list", publisher=f"Prices {size}-{copies}")
    for p in range(size):
        providers.append(ProviderFactory(name=f"Host {size}-{copies}-{p}"))
    for m in range(2):
        model = LanguageModelFactory(name=f"Model {size}-{copies}-{m}")
        source = SourceFactory(title=f"{model.name} providers")
        values = []
        for p, provider in enumerate(providers):
            endpoint = EndpointFactory(provider=provider, model=model)
            values += [(endpoint, "output_speed_median", 100 + p), (endpoint, "ttfc_median", Decimal("0.5") + p),
                       (endpoint, "accuracy_index", 90)]
            PriceFactory(endpoint=endpoint, source=pricing)
        SnapshotFactory(source=source, values=values, published=True)
        models.append(model)
        sources.append(source)

    def data_blocks(model, source):
        cols = [{"field": f, "difference_to_leader": True} for f in ("output_speed_median", "ttfc_median")]
        cols.append({"field": "price", "difference_to_leader": False})
        return [
            {"type": "provider_table", "value": {"model": model.pk, "source": source.pk, "columns": cols,
                                                 "sort_metric": "output_speed_median", "name_style": "short",
                                                 "show_api_model": True, "cite_sources": True, "caption": ""}},
            {"type": "bar_chart", "value": {"model": model.pk, "source": source.pk, "metric": "output_speed_median",
                                            "name_style": "short", "note": ""}},
            {"type": "provider_list", "value": {"model": model.pk, "source": source.pk, "pattern": "speed_summary",
                                                "order_by": "ttfc_median", "name_style": "full"}},
        ]

    body = [{"type": "picks_table", "value": {"caption": "", "rows": [
        {"need": "fastest", "model": m.pk, "source": s.pk, "compare_with": None, "extra_citations": []}
        for m, s in zip(models, sources, strict=True)]}}]
    for _copy in range(copies):
        for model, source in zip(models, sources, strict=True):
            body += data_blocks(model, source)
    body.append({"type": "provider_cards", "value": {
        "metric": "output_speed_median",
        "models": [{"model": m.pk, "source": s.pk} for m, s in zip(models, sources, strict=True)],
        "cards": [{"provider": p.pk, "summary": "", "strengths": "<p>s</p>", "limitations": "<p>l</p>"}
                  for p in providers],
    }})
    body.append({"type": "sources", "value": {"heading": ""}})
    page = ArticlePage(title=f"Cost {size} x{copies}", slug=f"cost-{size}-{copies}", body=body)
    page.page_sources = [ArticleSource(source=s, sort_order=i) for i, s in enumerate([*sources, pricing])]
    home.add_child(instance=page)
    page.save_revision().publish()
    return page


def count_render_queries(client, page):
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(page.url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response


def test_query_count_does_not_grow_with_providers_or_blocks(client, demo_site, django_assert_max_num_queries):
    small = build_article(demo_site, 10)
    large = build_article(demo_site, 100)
    many_blocks = build_article(demo_site, 10, copies=5)
    small_count, small_response = count_render_queries(client, small)
    large_count, large_response = count_render_queries(client, large)
    blocks_count, _ = count_render_queries(client, many_blocks)
    assert small_response.text.count('class="provider-card"') == 10
    assert large_response.text.count('class="provider-card"') == 100
    assert small_count == large_count == blocks_count
    cache.clear()
    with django_assert_max_num_queries(small_count):
        client.get(large.url)


def test_rendering_twice_uses_the_page_cache(client, demo_site):
    page = build_article(demo_site, 10)
    first, _ = count_render_queries(client, page)
    with CaptureQueriesContext(connection) as ctx:
        client.get(page.url)
    assert len(ctx.captured_queries) < first
