"""Benchmark data admin: every page renders, listings do not query per row, edits refresh cached pages."""

from decimal import Decimal

import pytest
from django.urls import reverse

from .data_admin_support import (
    draft_fixture,  # noqa: F401  (the draft fixture)
    endpoints_fixture,  # noqa: F401  (the endpoints fixture)
    listed,
    published_fixture,  # noqa: F401  (the published fixture)
    url,
)
from .factories import (
    EndpointFactory,
    PriceFactory,
    SnapshotFactory,
)

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
