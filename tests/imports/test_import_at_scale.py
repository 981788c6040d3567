"""A large snapshot import: rows are sent to the database while the file is still being checked, yet a file
with any error still writes nothing and every error keeps its row; the number of queries does not grow with
the rows; the short paths for usual cells give the same results as the careful ones."""

import gc
import json
from decimal import Decimal

import pytest
from django.db.models.signals import post_init

from benchmarks.ingest import bulk
from benchmarks.ingest.importers import ImportRejected, import_snapshot
from benchmarks.metrics import METRICS
from benchmarks.models import Measurement
from tests.factories import EndpointFactory, LanguageModelFactory, ProviderFactory, SourceFactory

from .support import csv_snapshot, rejected_messages

MEASURED_AT = "2026-11-28T14:00:00Z"
KEYS = ["output_speed_median", "ttft_median", "ttft_p95"]


@pytest.fixture
def hosts(db):
    """Twelve hosts serving one model; their CSV rows, three metrics each, in the order written."""
    model = LanguageModelFactory(slug="glm-5-3")
    endpoints = [EndpointFactory(provider=ProviderFactory(slug=f"host-{n}"), model=model) for n in range(12)]
    rows = [f"host-{n},glm-5-3,,{key},{n + k + 1}.5" for n in range(12) for k, key in enumerate(KEYS)]
    return {"endpoints": endpoints, "rows": rows, "source": SourceFactory()}


@pytest.fixture
def sent(monkeypatch):
    """Chunks of two rows, and the sizes of the chunks the import sent before it finished checking."""
    monkeypatch.setattr(bulk, "COPY_CHUNK", 2)
    sizes = []
    write = bulk.MeasurementWriter.write

    def spy(self, measurements):
        sizes.append(len(measurements))
        return write(self, measurements)

    monkeypatch.setattr(bulk.MeasurementWriter, "write", spy)
    return sizes


def test_rows_sent_before_a_late_error_are_rolled_back(hosts, sent):
    rows = [*hosts["rows"], "host-0,glm-5-3,,ttfc_median,fast"]  # the last row is wrong
    messages = rejected_messages(
        import_snapshot, csv_snapshot(*rows), source=hosts["source"].pk, measured_at=MEASURED_AT
    )
    assert messages == [f"row {len(rows) + 1}, column value: 'fast' is not a number"]
    assert sum(sent) == len(hosts["rows"])  # every good row had gone to the database, and none stayed


def test_a_duplicate_far_from_its_first_row_is_reported_with_both_rows(hosts, sent):
    rows = [*hosts["rows"], "HOST-1, glm-5-3 ,,ttft_median,9"]  # the same endpoint, however typed
    messages = rejected_messages(
        import_snapshot, csv_snapshot(*rows), source=hosts["source"].pk, measured_at=MEASURED_AT
    )
    # host-1's ttft_median is the fifth data row: spreadsheet row 6.
    assert messages == [f"row {len(rows) + 1}, column metric: duplicate of row 6 (same endpoint and metric)"]
    assert sent  # chunks had been sent before the duplicate came up


def test_errors_after_the_first_stop_sending_but_are_all_reported(hosts, sent):
    rows = list(hosts["rows"])
    rows[3] = "host-1,glm-5-3,,output_speed_median,-4"
    rows[20] = "host-99,glm-5-3,,ttft_p95,1"
    rows[30] = "host-10,glm-5-3,,speed,1"
    messages = rejected_messages(
        import_snapshot, csv_snapshot(*rows), source=hosts["source"].pk, measured_at=MEASURED_AT
    )
    assert [m.split(":")[0] for m in messages] == ["row 5, column value", "row 22, column provider",
                                                  "row 32, column metric"]
    assert sum(sent) <= 3  # nothing after the first error


def test_a_good_file_arrives_whole_in_chunks(hosts, sent):
    result = import_snapshot(csv_snapshot(*hosts["rows"]), source=hosts["source"].pk, measured_at=MEASURED_AT)
    assert result.count == len(hosts["rows"]) == sum(sent) and max(sent) == 2
    stored = set(Measurement.objects.filter(snapshot=result.snapshot).values_list("endpoint__provider__slug",
                                                                                  "metric", "value"))
    assert stored == {(f"host-{n}", key, Decimal(f"{n + k + 1}.5")) for n in range(12) for k, key in enumerate(KEYS)}


def test_the_number_of_queries_does_not_grow_with_the_rows(db, django_assert_max_num_queries):
    model = LanguageModelFactory(slug="glm-5-3")
    for n in range(60):
        EndpointFactory(provider=ProviderFactory(slug=f"host-{n}"), model=model)
    source = SourceFactory()

    def rows(hosts, value):
        return csv_snapshot(*(f"host-{n},glm-5-3,,{key},{value}" for n in range(hosts) for key in METRICS
                              if METRICS[key].kind != "percent"))

    with django_assert_max_num_queries(40) as small:
        import_snapshot(rows(2, 1), source=source.pk, measured_at="2026-11-27T14:00:00Z", publish=True)
    with django_assert_max_num_queries(len(small.captured_queries)):
        import_snapshot(rows(60, 2), source=source.pk, measured_at=MEASURED_AT, publish=True)
    assert Measurement.objects.latest().count() > 60 * 5


@pytest.mark.parametrize(
    ("cell", "stored"),
    [
        ("283.4", Decimal("283.4")),
        (" 0.67 ", Decimal("0.67")),
        ("1.23456789", Decimal("1.234568")),  # more decimals than the column keeps: rounded to six
        ("1.5E+2", Decimal("150")),
        ("2e-7", Decimal("0")),
        ("1_000", Decimal("1000")),
    ],
)
def test_numbers_read_on_the_short_path_are_stored_as_the_careful_path_reads_them(hosts, cell, stored):
    result = import_snapshot(csv_snapshot(f"host-0,glm-5-3,,ttft_median,{cell}"), source=hosts["source"].pk,
                             measured_at=MEASURED_AT)
    assert result.snapshot.measurements.get().value == stored


def test_json_cells_that_are_not_text_are_errors_not_crashes(hosts):
    raw = json.dumps({"source": hosts["source"].pk, "measured_at": MEASURED_AT, "measurements": [
        {"provider": ["host-0"], "model": "glm-5-3", "metric": "ttft_median", "value": 1},
        {"provider": "host-1", "model": {"slug": "glm-5-3"}, "metric": ["ttft_median"], "value": "1"},
        {"provider": "host-2", "model": "glm-5-3", "metric": "ttft_median", "value": 1.5},
    ]})
    messages = rejected_messages(import_snapshot, raw)
    assert [m.split(":")[0] for m in messages] == ["row 1, column provider", "row 2, column model",
                                                  "row 2, column metric"]


def test_publishing_an_import_neither_loads_its_rows_nor_leaves_the_collector_off(hosts):
    """Publishing changes no reference, so the reference index is not rebuilt (it loaded every row as a
    model instance), and the current values advance in the database."""
    built = []

    def count(sender, instance, **kwargs):
        built.append(instance)

    post_init.connect(count, sender=Measurement)
    try:
        result = import_snapshot(csv_snapshot(*hosts["rows"]), source=hosts["source"].pk, measured_at=MEASURED_AT,
                                 publish=True)
    finally:
        post_init.disconnect(count, sender=Measurement)
    assert result.snapshot.status == "published" and not built
    assert Measurement.objects.latest(sources=[hosts["source"]]).count() == len(hosts["rows"])
    assert gc.isenabled()
    with pytest.raises(ImportRejected):
        import_snapshot(csv_snapshot("host-0,glm-5-3,,ttft_median,x"), source=hosts["source"].pk,
                        measured_at=MEASURED_AT)
    assert gc.isenabled()
