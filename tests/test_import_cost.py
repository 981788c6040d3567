"""`manage.py import_snapshot` from the shell: its statements do not grow with the file, and every row
is still checked (scripts/bench_ingest.py measures it against `psql \\copy`; no wall-clock here)."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchmarks.models import Measurement, Snapshot
from tests.factories import EndpointFactory, LanguageModelFactory, SourceFactory

pytestmark = pytest.mark.django_db

METRICS = ["output_speed_median", "ttfc_median", "ttft_median", "e2e_median", "task_success"]


@pytest.fixture
def providers():
    model = LanguageModelFactory(name="Cost model", slug="cost-model")
    return [EndpointFactory(model=model).provider.slug for _ in range(100)]


def csv_file(tmp_path, providers, broken=()):
    lines = ["provider,model,tier,metric,value"]
    for n, provider in enumerate(providers):
        for k, metric in enumerate(METRICS):
            lines.append(f"{provider},cost-model,,{metric},{(n % 50) + 1 + k / 10:.1f}")
    for number in broken:
        lines[number - 1] = lines[number - 1].rsplit(",", 1)[0] + ",fast"
    path = tmp_path / f"cost-{len(providers)}-{len(broken)}.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def import_counting(path, source, day):
    with CaptureQueriesContext(connection) as queries:
        call_command("import_snapshot", str(path), source=str(source.pk), measured_at=f"2026-01-{day:02d}T00:00:00Z",
                     stdout=io.StringIO())
    return len(queries)


def test_an_import_makes_the_same_statements_for_ten_times_the_rows(tmp_path, providers):
    source = SourceFactory()
    small = import_counting(csv_file(tmp_path, providers[:10]), source, 1)
    large = import_counting(csv_file(tmp_path, providers), source, 2)
    assert small == large, (small, large)
    assert Snapshot.objects.filter(source=source).count() == 2
    assert Measurement.objects.filter(snapshot__source=source).count() == 50 + 500


def test_every_bad_row_of_a_large_file_is_reported_and_nothing_is_written(tmp_path, providers):
    source = SourceFactory()
    errors = io.StringIO()
    with pytest.raises(CommandError, match="3 errors"):
        call_command("import_snapshot", str(csv_file(tmp_path, providers, broken=(2, 250, 501))),
                     source=str(source.pk), measured_at="2026-01-03T00:00:00Z", stdout=io.StringIO(), stderr=errors)
    reported = errors.getvalue()
    for row in (2, 250, 501):
        assert f"row {row}, column value" in reported, reported
    assert not Snapshot.objects.filter(source=source).exists()
    assert not Measurement.objects.filter(snapshot__source=source).exists()
