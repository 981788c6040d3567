"""A snapshot's measurements are shown a page at a time, with a filter, in the read-only view of a
published snapshot and in the draft editor; either costs the same queries for 30 or 300 rows."""

import re
from decimal import Decimal

import pytest
from bs4 import BeautifulSoup
from wagtail.test.utils.form_data import inline_formset, nested_form_data

from benchmarks.admin.snapshot_measurements import PAGE_SIZE, ROW_ORDER
from benchmarks.metrics import METRICS
from benchmarks.models import Measurement, Snapshot

from .data_admin_support import endpoint_grid, snapshot_fields
from .data_admin_support import snapshot_edit_url as edit_url
from .factories import SnapshotFactory

SMALL, LARGE = 30, 300
QUERY_BOUND = 40
METRIC_KEYS = list(METRICS)  # 15 metrics: 2 endpoints give 30 rows, 20 endpoints 300


@pytest.fixture
def endpoints(db):
    return endpoint_grid()


def snapshot_with(endpoints, count, published=False):
    """A snapshot of `count` measurements (bulk-created); values 0.25, 0.5, 0.75… tell the rows apart
    and stay plausible for every metric (a percentage is at most 100)."""
    snapshot = SnapshotFactory()
    pairs = [(endpoint, metric) for endpoint in endpoints for metric in METRIC_KEYS][:count]
    Measurement.objects.bulk_create(
        Measurement(snapshot=snapshot, endpoint=endpoint, metric=metric, value=Decimal(n) / 4)
        for n, (endpoint, metric) in enumerate(pairs, start=1)
    )
    if published:
        snapshot.publish()
    return snapshot


def expected_rows(snapshot, **filters):
    return list(snapshot.measurements.filter(**filters).order_by(*ROW_ORDER))


def table_values(html):
    """The value column of the read-only measurements table, as numbers."""
    table = BeautifulSoup(html, "html.parser").find("table", class_="snapshot-measurements")
    return [Decimal(row.find_all("td")[2].text.split()[0]) for row in table.tbody.find_all("tr")]


def form_row_ids(html):
    return [int(pk) for pk in re.findall(r'name="measurements-\d+-id" value="(\d+)"', html)]


@pytest.mark.parametrize("count", [SMALL, LARGE])
def test_published_snapshot_costs_the_same_queries_whatever_its_size(
    editor_client, endpoints, count, django_assert_max_num_queries
):
    snapshot = snapshot_with(endpoints, count, published=True)
    editor_client.get(edit_url(snapshot))  # session, caches
    with django_assert_max_num_queries(QUERY_BOUND):
        page = editor_client.get(edit_url(snapshot))
    assert page.status_code == 200
    assert len(table_values(page.text)) == min(count, PAGE_SIZE)


@pytest.mark.parametrize("count", [SMALL, LARGE])
def test_draft_editor_costs_the_same_queries_whatever_its_size(
    editor_client, endpoints, count, django_assert_max_num_queries
):
    snapshot = snapshot_with(endpoints, count)
    editor_client.get(edit_url(snapshot))
    with django_assert_max_num_queries(QUERY_BOUND):
        page = editor_client.get(edit_url(snapshot))
    assert page.status_code == 200
    assert len(form_row_ids(page.text)) == min(count, PAGE_SIZE)


def test_published_snapshot_pages_and_filter(editor_client, endpoints):
    snapshot = snapshot_with(endpoints, LARGE, published=True)
    rows = expected_rows(snapshot)
    first = editor_client.get(edit_url(snapshot))
    assert table_values(first.text) == [m.value for m in rows[:PAGE_SIZE]]
    assert "Measurements 1–100 of 300" in first.text and "Page 1 of 3" in first.text

    second = editor_client.get(edit_url(snapshot, p=2))
    assert table_values(second.text) == [m.value for m in rows[PAGE_SIZE : 2 * PAGE_SIZE]]
    assert "Measurements 101–200 of 300" in second.text

    beta, host = endpoints[10].model, endpoints[13].provider
    narrowed = editor_client.get(edit_url(snapshot, model=beta.pk, provider=host.pk, metric="ttft_p95"))
    wanted = expected_rows(snapshot, endpoint__model=beta, endpoint__provider=host, metric="ttft_p95")
    assert len(wanted) == 1
    assert table_values(narrowed.text) == [wanted[0].value]
    assert "Measurements 1–1 of 1 (the snapshot has 300)" in narrowed.text

    by_metric = editor_client.get(edit_url(snapshot, metric="ttft_p95"))
    assert table_values(by_metric.text) == [m.value for m in expected_rows(snapshot, metric="ttft_p95")]
    assert len(table_values(by_metric.text)) == 20


def test_draft_editor_pages_and_filter(editor_client, endpoints):
    snapshot = snapshot_with(endpoints, LARGE)
    rows = expected_rows(snapshot)
    first = editor_client.get(edit_url(snapshot))
    assert form_row_ids(first.text) == [m.pk for m in rows[:PAGE_SIZE]]
    second = editor_client.get(edit_url(snapshot, p=2))
    assert form_row_ids(second.text) == [m.pk for m in rows[PAGE_SIZE : 2 * PAGE_SIZE]]
    # Saving page 2 comes back to page 2.
    assert f'action="{edit_url(snapshot, p=2)}"' in second.text
    by_model = editor_client.get(edit_url(snapshot, model=endpoints[0].model.pk, metric="ttfc_median"))
    wanted = expected_rows(snapshot, endpoint__model=endpoints[0].model, metric="ttfc_median")
    assert form_row_ids(by_model.text) == [m.pk for m in wanted] and len(wanted) == 10


def page_form_data(snapshot, rows, extra=(), deleted=()):
    """The draft editor's POST for a page holding `rows` (measurements), changed as the test wants."""
    forms = [
        {
            "id": m.pk, "endpoint": m.endpoint_id, "metric": m.metric, "value": str(m.value),
            "DELETE": "1" if m in deleted else "",
        }
        for m in rows
    ] + [{"id": "", "endpoint": e.pk, "metric": metric, "value": value} for e, metric, value in extra]
    return nested_form_data(
        {**snapshot_fields(snapshot, correction_note=""), "measurements": inline_formset(forms, initial=len(rows))}
    )


def test_saving_a_page_changes_its_rows_and_keeps_the_others(editor_client, endpoints):
    snapshot = snapshot_with(endpoints, LARGE)
    rows = expected_rows(snapshot)
    page_two = rows[PAGE_SIZE : 2 * PAGE_SIZE]
    page_two[0].value = Decimal("42.5")
    response = editor_client.post(edit_url(snapshot, p=2), page_form_data(snapshot, page_two))
    assert response.status_code == 302, response.context and response.context["form"].formsets["measurements"].errors
    assert snapshot.measurements.count() == LARGE
    assert snapshot.measurements.get(pk=page_two[0].pk).value == Decimal("42.5")
    assert snapshot.measurements.get(pk=rows[0].pk).value == rows[0].value

    # Deleting a row of page 2 deletes that row only.
    response = editor_client.post(edit_url(snapshot, p=2), page_form_data(snapshot, page_two, deleted=[page_two[1]]))
    assert response.status_code == 302
    assert snapshot.measurements.count() == LARGE - 1
    assert not snapshot.measurements.filter(pk=page_two[1].pk).exists()
    page_two = [row for row in page_two if row != page_two[1]]

    # A new row may not repeat an endpoint and metric stored on another page.
    clash = (rows[0].endpoint, rows[0].metric, "7")
    response = editor_client.post(edit_url(snapshot, p=2), page_form_data(snapshot, page_two, extra=[clash]))
    assert response.status_code == 200
    assert "already has a value of this metric for this endpoint (on another page)" in response.text
    assert snapshot.measurements.count() == LARGE - 1


def test_published_snapshot_form_is_not_built_from_its_rows(editor_client, endpoints):
    snapshot = snapshot_with(endpoints, SMALL, published=True)
    page = editor_client.get(edit_url(snapshot))
    assert 'name="measurements-0-id"' not in page.text
    assert Snapshot.objects.get(pk=snapshot.pk).status == Snapshot.Status.PUBLISHED
