"""What the benchmark-data admin tests share: URLs of the snippet views, the endpoints and snapshots
they edit, and the snapshot editor's POST data."""

import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from wagtail.test.utils.form_data import inline_formset, nested_form_data

from .factories import EndpointFactory, LanguageModelFactory, ProviderFactory, SnapshotFactory

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def url(model, view, *args):
    return reverse(f"wagtailsnippets_benchmarks_{model}:{view}", args=args)


def snapshot_edit_url(snapshot, **params):
    """The snapshot editor's URL, with query parameters (page, filters) when given."""
    return url("snapshot", "edit", snapshot.pk) + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def endpoint_grid():
    """20 endpoints: models Alpha and Beta, each served by hosts 00-09 (for paged snapshot editors)."""
    models = [LanguageModelFactory(name="Alpha"), LanguageModelFactory(name="Beta")]
    providers = [ProviderFactory(name=f"Host {n:02}") for n in range(10)]
    return [EndpointFactory(provider=p, model=m) for m in models for p in providers]


def listed(response, model):
    """Primary keys of the rows a snippet listing shows (from their edit links)."""
    return {int(pk) for pk in re.findall(rf"/admin/snippets/benchmarks/{model}/edit/(\d+)/", response.text)}


@pytest.fixture(name="endpoints")
def endpoints_fixture(db):
    fireworks, together = (
        ProviderFactory(name="Fireworks"),
        ProviderFactory(name="Together AI", slug="together"),
    )
    glm, gpt = LanguageModelFactory(name="GLM-5.3", slug="glm-5-3"), LanguageModelFactory(name="GPT-OSS 120B")
    return {
        "fw_glm": EndpointFactory(
            provider=fireworks, model=glm, api_model_id="accounts/fireworks/models/glm-5p3"
        ),
        "fw_gpt": EndpointFactory(provider=fireworks, model=gpt),
        "tg_glm": EndpointFactory(provider=together, model=glm),
        "tg_glm_fast": EndpointFactory(provider=together, model=glm, tier="Fast"),
    }


@pytest.fixture(name="draft")
def draft_fixture(endpoints):
    return SnapshotFactory(
        values=[
            (endpoints["fw_glm"], "output_speed_median", "210.4"),
            (endpoints["tg_glm"], "output_speed_median", "164.3"),
        ]
    )


@pytest.fixture(name="published")
def published_fixture(endpoints):
    return SnapshotFactory(
        values=[
            (endpoints["fw_glm"], "output_speed_median", "210.4"),
            (endpoints["tg_glm"], "ttfc_median", "0.67"),
        ],
        published=True,
    )


def snapshot_fields(snapshot, **overrides):
    """The snapshot editor's own fields, as the form posts them."""
    return {
        "source": snapshot.source_id,
        "workload": snapshot.workload,
        "effort": snapshot.effort,
        "concurrency": "",
        "sample_size": "",
        "window_start": "",
        "window_end": "",
        "measured_at": timezone.localtime(snapshot.measured_at).strftime("%Y-%m-%d %H:%M"),
        "fetched_at": timezone.localtime(snapshot.fetched_at).strftime("%Y-%m-%d %H:%M"),
        "correction_note": snapshot.correction_note,
        **overrides,
    }


def snapshot_form_data(snapshot, rows, **overrides):
    """POST data of the snapshot editor: the snapshot's fields plus `rows` as the inline measurements."""
    forms = [
        {"id": m.pk if m else "", "endpoint": endpoint.pk, "metric": metric, "value": value}
        for m, endpoint, metric, value in rows
    ]
    initial = sum(1 for row in rows if row[0] is not None)
    fields = snapshot_fields(snapshot, **overrides)
    return nested_form_data({**fields, "measurements": inline_formset(forms, initial=initial)})


def current_rows(snapshot):
    return [(m, m.endpoint, m.metric, str(m.value)) for m in snapshot.measurements.order_by("pk")]
