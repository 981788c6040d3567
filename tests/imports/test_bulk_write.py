"""What the import's COPY writes is what it was given: values are escaped for COPY's text format, numbers
keep their value whatever their notation, and rows are sent in chunks without losing one at a boundary."""

from decimal import Decimal

import pytest

from benchmarks.ingest import bulk
from benchmarks.ingest.bulk import copy_text, write_measurements
from benchmarks.ingest.importers.rows import MeasurementRow
from benchmarks.models import Measurement
from tests.factories import EndpointFactory, SnapshotFactory

pytestmark = pytest.mark.django_db


def stored(snapshot):
    return sorted(Measurement.objects.filter(snapshot=snapshot).values_list("endpoint_id", "metric", "value"))


def test_text_that_copy_would_read_as_a_delimiter_or_an_escape_is_stored_verbatim():
    """Metric keys are checked against the registry before an import writes them; write_measurements
    itself takes any text, and a tab, line break or backslash must not split or shift a row."""
    endpoint, snapshot = EndpointFactory(), SnapshotFactory()
    awkward = ["tab\there", "line\nbreak", "carriage\rreturn", "back\\slash", "\\N", "\\.", "end\\"]
    write_measurements(snapshot, [MeasurementRow(endpoint.pk, text, Decimal(n)) for n, text in enumerate(awkward)])
    assert stored(snapshot) == sorted((endpoint.pk, text, Decimal(n)) for n, text in enumerate(awkward))


@pytest.mark.parametrize(
    "value, expected",
    [
        (Decimal("1E+2"), Decimal("100")),
        (Decimal("-0.000001"), Decimal("-0.000001")),
        (Decimal("9999999999.999999"), Decimal("9999999999.999999")),
        (Decimal("0E-7"), Decimal("0")),
        (42, Decimal("42")),
        ("7.5", Decimal("7.5")),
    ],
)
def test_numbers_keep_their_value_whatever_their_notation(value, expected):
    endpoint, snapshot = EndpointFactory(), SnapshotFactory()
    write_measurements(snapshot, [MeasurementRow(endpoint.pk, "ttft_median", value)])
    assert stored(snapshot) == [(endpoint.pk, "ttft_median", expected)]


def test_copy_text_of_null_and_plain_values():
    assert copy_text(None) == "\\N"
    assert copy_text("a\tb\\c\nd\re") == "a\\tb\\\\c\\nd\\re"
    assert copy_text(Decimal("1.50")) == "1.50" and copy_text(12) == "12"


def test_rows_are_sent_in_chunks_and_none_is_lost_at_a_boundary(monkeypatch):
    monkeypatch.setattr(bulk, "COPY_CHUNK", 3)
    endpoints = [EndpointFactory() for _ in range(7)]  # two full chunks and one row
    snapshot = SnapshotFactory()
    write_measurements(snapshot, [MeasurementRow(e.pk, "ttft_median", Decimal(n)) for n, e in enumerate(endpoints)])
    assert stored(snapshot) == [(e.pk, "ttft_median", Decimal(n)) for n, e in enumerate(endpoints)]
