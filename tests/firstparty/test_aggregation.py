"""Aggregation in PostgreSQL against Python reference computations, run and rolling-window snapshots,
retention."""

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from benchmarks.models import Measurement
from firstparty.aggregation import aggregate_run, aggregate_series_period
from firstparty.models import RequestRecord, Run, Series
from firstparty.tasks import drop_old_records
from tests.firstparty_support import first_party_source, make_endpoint

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 9, 3, 9, tzinfo=UTC)


def reference_percentile(values, p):
    """Linear interpolation between closest ranks (the definition percentile_cont documents)."""
    ordered = sorted(values)
    rank = p * (len(ordered) - 1)
    below = int(rank)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] * (1 - (rank - below)) + ordered[above] * (rank - below)


def make_records(endpoint, run=None, series=None, seed=1, count=37, start=T0, step=timedelta(minutes=1)):
    rng = random.Random(seed)
    outcomes = ["success"] * 6 + ["wrong_answer", "timeout", "http_error", "malformed"]
    records = []
    for i in range(count):
        outcome = rng.choice(outcomes)
        record = RequestRecord(endpoint=endpoint, run=run, series=series, started_at=start + i * step, outcome=outcome)
        if outcome in ("success", "wrong_answer"):
            record.ttft_s = round(rng.uniform(0.1, 3), 4)
            record.e2e_s = record.ttft_s + round(rng.uniform(0.5, 9), 4)
            record.output_tokens = rng.randint(2, 256)
        elif outcome == "http_error":
            record.http_status = 503
        records.append(record.derive())
    return RequestRecord.objects.bulk_create(records)


def expected_figures(records):
    done = [r for r in records if r.outcome in ("success", "wrong_answer")]
    ttft, e2e, tps = [r.ttft_s for r in done], [r.e2e_s for r in done], [r.tokens_per_second for r in done]
    return {
        "ttft_median": reference_percentile(ttft, 0.5), "ttft_p95": reference_percentile(ttft, 0.95),
        "ttft_p99": reference_percentile(ttft, 0.99), "e2e_median": reference_percentile(e2e, 0.5),
        "e2e_p95": reference_percentile(e2e, 0.95), "e2e_p99": reference_percentile(e2e, 0.99),
        "tps_median": reference_percentile(tps, 0.5), "tps_p95": reference_percentile(tps, 0.05),
        "tps_mean": sum(tps) / len(tps),
        "task_success": 100 * sum(r.outcome == "success" for r in records) / len(records),
        "failure_rate": 100 * sum(r.outcome in ("timeout", "http_error", "malformed") for r in records) / len(records),
        "sample_count": len(records),
    }


def test_run_snapshot_matches_reference_percentiles_per_endpoint():
    source = first_party_source("run")
    a, b = make_endpoint("acme"), make_endpoint("beta")
    run = Run.objects.create(name="r", source=source, requests_per_endpoint=37)
    records = {a.pk: make_records(a, run, seed=1), b.pk: make_records(b, run, seed=2, count=23)}
    with CaptureQueriesContext(connection) as queries:
        snapshot = aggregate_run(run)
    aggregate_queries = [q for q in queries.captured_queries if "percentile_cont" in q["sql"]]
    assert len(aggregate_queries) == 1  # one query for every endpoint and figure
    assert snapshot.status == "published" and snapshot.source == source
    for endpoint_id, rows in records.items():
        stored = {m.metric: m.value for m in Measurement.objects.filter(snapshot=snapshot, endpoint_id=endpoint_id)}
        for metric, value in expected_figures(rows).items():
            assert stored[metric] == pytest.approx(Decimal(str(round(value, 6))), abs=Decimal("0.000002")), metric
    run.refresh_from_db()
    assert run.status == "aggregated" and run.snapshot == snapshot


def test_hand_computed_small_case():
    """Four completed requests and one timeout: figures worked out by hand."""
    source = first_party_source("hand")
    endpoint = make_endpoint("acme")
    run = Run.objects.create(name="hand", source=source, requests_per_endpoint=5)
    rows = [(0.2, 1.2, 11), (0.4, 2.4, 21), (0.6, 1.6, 41), (0.8, 4.8, 9)]
    RequestRecord.objects.bulk_create(
        [RequestRecord(endpoint=endpoint, run=run, started_at=T0 + timedelta(seconds=i), outcome="success",
                       ttft_s=t, e2e_s=e, output_tokens=n).derive() for i, (t, e, n) in enumerate(rows)]
        + [RequestRecord(endpoint=endpoint, run=run, started_at=T0 + timedelta(seconds=9), outcome="timeout")]
    )
    snapshot = aggregate_run(run)
    values = {m.metric: m.value for m in snapshot.measurements.all()}
    # tokens/s: 10/1.0=10, 20/2.0=10, 40/1.0=40, 8/4.0=2 -> sorted 2, 10, 10, 40
    assert values["tps_median"] == Decimal("10")
    assert values["tps_mean"] == Decimal("15.5")
    assert values["tps_p95"] == Decimal("3.2")  # 2 + 0.15 × (10 - 2)
    assert values["ttft_median"] == Decimal("0.5")  # between 0.4 and 0.6
    assert values["e2e_p95"] == Decimal("4.44")  # 2.4 + 0.85 × (4.8 - 2.4)
    assert values["task_success"] == Decimal("80") and values["failure_rate"] == Decimal("20")
    assert values["sample_count"] == 5


def test_rolling_window_snapshot_uses_only_the_window_and_region():
    source = first_party_source("series")
    series = Series.objects.create(name="s", source=source, window_hours=24, region="eu")
    endpoint = make_endpoint("acme")
    end = T0 + timedelta(hours=30)
    inside = make_records(endpoint, series=series, seed=3, count=40, start=end - timedelta(hours=20),
                          step=timedelta(minutes=20))
    make_records(endpoint, series=series, seed=4, count=10, start=end - timedelta(hours=29))  # too old
    RequestRecord.objects.filter(pk__in=[r.pk for r in inside]).update(region="eu")
    make_records(endpoint, series=series, seed=5, count=10, start=end - timedelta(hours=2))  # no region label
    snapshot = aggregate_series_period(series, end)
    values = {m.metric: m.value for m in snapshot.measurements.all()}
    expected = expected_figures(inside)
    assert values["sample_count"] == 40
    assert values["tps_median"] == pytest.approx(Decimal(str(round(expected["tps_median"], 6))), abs=Decimal("0.000002"))
    assert snapshot.window_start == end - timedelta(hours=24) and snapshot.window_end == end
    assert snapshot.series_period.series == series


def test_retention_drops_only_old_records_whose_aggregates_exist(settings):
    settings.FIRSTPARTY_RETENTION_DAYS = 400
    source = first_party_source("keep")
    endpoint = make_endpoint("acme")
    old = timezone.now() - timedelta(days=401)
    aggregated = Run.objects.create(name="old aggregated", source=source)
    make_records(endpoint, aggregated, count=5, start=old)
    aggregate_run(aggregated)
    pending = Run.objects.create(name="old, not aggregated", source=source)
    make_records(endpoint, pending, count=5, start=old)
    recent = Run.objects.create(name="recent", source=source)
    make_records(endpoint, recent, count=5, start=timezone.now() - timedelta(days=3))
    aggregate_run(recent)
    assert drop_old_records.delay().get() == 5
    assert not aggregated.records.exists() and pending.records.count() == 5 and recent.records.count() == 5
    aggregated.refresh_from_db()
    assert aggregated.snapshot.measurements.filter(metric="sample_count").exists()  # aggregates stay
