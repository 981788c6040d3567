"""Shared by the data-reference, typed-figure and review tests: one measured model and articles on it."""

import datetime
from decimal import Decimal
from itertools import count

from django.test import TestCase

from articles.datarefs.refs import DataRef
from benchmarks.cache import bump_cache_generation, bump_data_generation
from benchmarks.models import Measurement, Snapshot
from benchmarks.versioning import bump_content_version
from tests.factories import (
    EndpointFactory,
    LanguageModelFactory,
    PriceFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)

_slugs = count(1)

GLM_VALUES = {
    # endpoint key: (output speed, first chunk, accuracy)
    "fast": ("283.4", "0.90", "94.18"),
    "together": ("164.3", "0.67", None),
    "zai": ("150.4", "2.39", "98.74"),
    "novita": ("105.5", "2.51", "95.62"),
}


def glm_data():
    """GLM-5.3 measured by one source (four endpoints), and a price list for two of them."""
    model = LanguageModelFactory(name="GLM-5.3", slug="glm-5-3")
    source = SourceFactory(publisher="Artificial Analysis", title="GLM-5.3 providers")
    baseten = ProviderFactory(name="Baseten", slug="baseten")
    endpoints = {
        "fast": EndpointFactory(provider=baseten, model=model, tier="Fast"),
        "together": EndpointFactory(
            provider=ProviderFactory(name="Together AI", slug="together-ai"), model=model
        ),
        "zai": EndpointFactory(provider=ProviderFactory(name="Z.ai", slug="z-ai"), model=model),
        "novita": EndpointFactory(provider=ProviderFactory(name="Novita AI", slug="novita-ai"), model=model),
    }
    snapshot = SnapshotFactory(source=source, values=glm_values(endpoints), published=True)
    pricing = SourceFactory(publisher="Baseten", title="pricing", kind="price_list")
    PriceFactory(
        endpoint=endpoints["fast"], input_per_m=Decimal("2.10"), output_per_m=Decimal("6.60"), source=pricing
    )
    PriceFactory(
        endpoint=endpoints["zai"], input_per_m=Decimal("0.60"), output_per_m=Decimal("2.20"), source=pricing
    )
    return {"model": model, "source": source, "pricing": pricing, "snapshot": snapshot, **endpoints}


def glm_values(endpoints, changes=None):
    """[(endpoint, metric, value)] of GLM_VALUES, with {(endpoint key, metric): value} replaced."""
    changes = changes or {}
    rows = []
    for key, values in GLM_VALUES.items():
        for metric, value in zip(
            ("output_speed_median", "ttfc_median", "accuracy_index"), values, strict=True
        ):
            value = changes.get((key, metric), value)
            if value is not None:
                rows.append((endpoints[key], metric, value))
    return rows


def publish_new_snapshot(data, changes=None, hours_later=1):
    """A refresh: a newer snapshot of the same source, published next to the previous one (and
    committed: the review of changed figures runs after the commit)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        snapshot = SnapshotFactory(
            source=data["source"],
            measured_at=data["snapshot"].measured_at + datetime.timedelta(hours=hours_later),
            values=glm_values(data, changes),
            published=True,
        )
    bump_data_generation()
    return snapshot


def publish_correction(published, changes, note="re-measured", bump=True):
    """A correction: a draft copy with {(endpoint id, metric): value} replaced, published in place of `published`.
    `bump=False` leaves the data generation as it was, to see a cached copy before the bump the admin makes."""
    draft = Snapshot.objects.create(
        source=published.source, measured_at=published.measured_at, workload="same"
    )
    for row in published.measurements.select_related("endpoint"):
        Measurement.objects.create(
            snapshot=draft,
            endpoint=row.endpoint,
            metric=row.metric,
            value=changes.get((row.endpoint_id, row.metric), row.value),
        )
    with TestCase.captureOnCommitCallbacks(execute=True):  # the review runs after the commit
        published.publish_correction(draft, note)
    if bump:  # as the admin does: the corrected models' renderings, and the page cache
        bump_content_version(draft.model_keys(published))
        bump_cache_generation()
    return draft


def ref_html(model, metric, endpoint=None, source=None, compare="", other=None):
    ref = DataRef(
        model_id=model.pk,
        metric=metric,
        endpoint_id=endpoint.pk if endpoint else None,
        source_id=source.pk if source else None,
        compare=compare,
        other_id=other.pk if other else None,
    )
    attrs = " ".join(f'{name}="{value}"' for name, value in ref.as_attrs().items())
    return f'<embed embedtype="dataref" {attrs}/>'


def make_article(body_en, body_es=None, sources=(), title="Fastest GLM-5.3 API", spanish=True, summary=None):
    """A published article under the site's home page; the Spanish body mirrors the English one by default.

    The Spanish is the stored text the article's translation memory starts from (editorial.spanish);
    `spanish=False` makes an English-only article (no Spanish title, slug or body)."""
    from articles.demo import ensure_article, ensure_home_page

    n = next(_slugs)
    texts = {
        "title": {"en": title, "es": f"{title} (ES)"},
        "slug": {"en": f"figures-{n}", "es": f"cifras-{n}"},
        "body": {"en": body_en, "es": body_es if body_es is not None else body_en},
    }
    if summary is not None:  # {"en": …, "es": …}
        texts["summary"] = summary
    if not spanish:
        texts = {name: {"en": values["en"]} for name, values in texts.items()}
    page, _created = ensure_article(ensure_home_page(), f"figures-{n}", sources=sources, **texts)
    return page


def paragraph(html):
    return {"type": "paragraph", "value": html}


def table(data, **extra):
    value = {
        "model": data["model"].pk,
        "source": data["source"].pk,
        "columns": [
            {"field": "output_speed_median", "difference_to_leader": False},
            {"field": "ttfc_median", "difference_to_leader": False},
            {"field": "price", "difference_to_leader": False},
        ],
        "sort_metric": "output_speed_median",
        "name_style": "short",
        "show_api_model": False,
        "cite_sources": True,
        "caption": "",
    }
    value.update(extra)
    return {"type": "provider_table", "value": value}


def picks(data):
    row = {
        "need": "fastest",
        "model": data["model"].pk,
        "source": data["source"].pk,
        "compare_with": None,
        "extra_citations": [],
    }
    return {"type": "picks_table", "value": {"caption": "", "rows": [row]}}
