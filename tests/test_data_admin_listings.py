"""Benchmark data admin: every page renders, listings do not query per row, edits refresh cached pages."""

import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from wagtail.test.utils.form_data import inline_formset, nested_form_data

from .factories import (
    EndpointFactory,
    LanguageModelFactory,
    PriceFactory,
    ProviderFactory,
    SnapshotFactory,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def url(model, view, *args):
    return reverse(f"wagtailsnippets_benchmarks_{model}:{view}", args=args)


def listed(response, model):
    """Primary keys of the rows a snippet listing shows (from their edit links)."""
    return {int(pk) for pk in re.findall(rf"/admin/snippets/benchmarks/{model}/edit/(\d+)/", response.text)}


@pytest.fixture
def endpoints(db):
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


@pytest.fixture
def draft(endpoints):
    return SnapshotFactory(
        values=[
            (endpoints["fw_glm"], "output_speed_median", "210.4"),
            (endpoints["tg_glm"], "output_speed_median", "164.3"),
        ]
    )


@pytest.fixture
def published(endpoints):
    return SnapshotFactory(
        values=[
            (endpoints["fw_glm"], "output_speed_median", "210.4"),
            (endpoints["tg_glm"], "ttfc_median", "0.67"),
        ],
        published=True,
    )


def snapshot_form_data(snapshot, rows, **overrides):
    """POST data of the snapshot editor: the snapshot's fields plus `rows` as the inline measurements."""
    fields = {
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
    forms = [
        {"id": m.pk if m else "", "endpoint": endpoint.pk, "metric": metric, "value": value}
        for m, endpoint, metric, value in rows
    ]
    initial = sum(1 for row in rows if row[0] is not None)
    return nested_form_data({**fields, "measurements": inline_formset(forms, initial=initial)})


def current_rows(snapshot):
    return [(m, m.endpoint, m.metric, str(m.value)) for m in snapshot.measurements.order_by("pk")]


# --- listings -----------------------------------------------------------------------------------


# --- every page renders, and listings do not query per row ----------------------------------------


@pytest.mark.parametrize("model", ["provider", "languagemodel", "endpoint", "source", "snapshot", "price"])
def test_listing_and_add_pages_render(editor_client, model, published):
    PriceFactory(endpoint=published.measurements.first().endpoint)
    assert editor_client.get(url(model, "list")).status_code == 200
    assert editor_client.get(url(model, "add")).status_code == 200
    chooser = reverse(f"wagtailsnippetchoosers_benchmarks_{model}:choose")
    assert editor_client.get(chooser).status_code == 200


def test_snapshot_inspect_shows_the_raw_payload(editor_client, endpoints):
    snapshot = SnapshotFactory(raw_payload='{"upstream": "verbatim"}')
    page = editor_client.get(url("snapshot", "inspect", snapshot.pk))
    assert page.status_code == 200 and "verbatim" in page.text


@pytest.mark.parametrize("model", ["endpoint", "snapshot", "price"])
def test_listing_queries_do_not_grow_with_rows(editor_client, db, model, django_assert_max_num_queries):
    def fill(count):
        for _ in range(count):
            endpoint = EndpointFactory()
            SnapshotFactory(values=[(endpoint, "ttfc_median", 1)], published=True)
            PriceFactory(endpoint=endpoint)

    fill(3)
    editor_client.get(url(model, "list"))  # warm per-session caches
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as small:
        assert editor_client.get(url(model, "list")).status_code == 200
    fill(27)
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = editor_client.get(url(model, "list"))
    assert len(listed(response, model)) >= 20  # a full first page


def test_editing_a_price_refreshes_cached_pages(editor_client, endpoints, django_capture_on_commit_callbacks):
    from benchmarks.cache import data_generation

    price = PriceFactory(endpoint=endpoints["fw_glm"])
    before = data_generation()
    form = {
        "endpoint": price.endpoint_id,
        "input_per_m": "1.20",
        "output_per_m": "4.40",
        "currency": "usd",
        "promo_input_per_m": "",
        "promo_output_per_m": "",
        "promo_until": "",
        "effective_date": str(price.effective_date),
        "source": price.source_id,
        "snapshot": "",
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = editor_client.post(url("price", "edit", price.pk), form)
    assert response.status_code == 302
    price.refresh_from_db()
    assert (price.input_per_m, price.currency) == (Decimal("1.20"), "USD")
    assert data_generation() != before
    # A price without currency is refused on the currency field, and nothing changes.
    response = editor_client.post(
        url("price", "edit", price.pk), {**form, "currency": "", "input_per_m": "9"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["currency"]
    price.refresh_from_db()
    assert price.input_per_m == Decimal("1.20")
