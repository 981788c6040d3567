"""From per-request records to published figures.

On PostgreSQL one GROUP BY query computes every figure of every endpoint with `percentile_cont` and
aggregate FILTER clauses; no Python loop over records. (SQLite, the zero-setup `make run` default, has
no ordered-set aggregates: there the same definitions run in Python, see `_python_rows`.)

Definitions (also in docs/first-party-runs.md and the metric registry):
- TTFT, end-to-end and tokens/s percentiles use the requests that completed a response (success or
  wrong answer); `percentile_cont` interpolates linearly between the two nearest ranks.
- The tokens/s "p95 floor" is the 5th percentile: 95% of requests were at least this fast.
- Task success and failure rate are shares of every request, errors and timeouts included.
"""

import hashlib
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_EVEN, Decimal

from django.db import connection, transaction

from benchmarks.cache import invalidate_after_commit
from benchmarks.models import Measurement, Snapshot

from .models import RequestRecord, Run, Series, SeriesSnapshot

COMPLETED = tuple(str(o) for o in RequestRecord.COMPLETED)
FAILED = tuple(str(o) for o in RequestRecord.FAILED)

# figure name -> metric key in the registry (benchmarks/metrics.py)
FIGURE_METRICS = {
    "ttft_p50": "ttft_median", "ttft_p95": "ttft_p95", "ttft_p99": "ttft_p99",
    "e2e_p50": "e2e_median", "e2e_p95": "e2e_p95", "e2e_p99": "e2e_p99",
    "tps_p50": "tps_median", "tps_mean": "tps_mean", "tps_p05": "tps_p95",
    "success_rate": "task_success", "failure_rate": "failure_rate", "samples": "sample_count",
}
SIX_PLACES = Decimal("0.000001")

AGGREGATE_SQL = """
SELECT r.endpoint_id,
       count(*) AS samples,
       count(*) FILTER (WHERE r.outcome = 'success') AS successes,
       count(*) FILTER (WHERE r.outcome IN {failed}) AS failures,
       percentile_cont(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY r.ttft_s)
           FILTER (WHERE r.outcome IN {completed}) AS ttft,
       percentile_cont(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY r.e2e_s)
           FILTER (WHERE r.outcome IN {completed}) AS e2e,
       percentile_cont(ARRAY[0.05, 0.5]) WITHIN GROUP (ORDER BY r.tokens_per_second)
           FILTER (WHERE r.outcome IN {completed}) AS tps,
       avg(r.tokens_per_second) FILTER (WHERE r.outcome IN {completed}) AS tps_mean,
       min(r.started_at) AS first_at,
       max(r.started_at) AS last_at
FROM firstparty_requestrecord r
WHERE {where}
GROUP BY r.endpoint_id
ORDER BY r.endpoint_id
"""


@dataclass
class EndpointFigures:
    endpoint_id: int
    figures: dict  # figure name -> float or None
    first_at: datetime
    last_at: datetime


def _sql_list(values):
    return "(" + ", ".join(f"'{v}'" for v in values) + ")"  # constants from our own choices, never user input


def _sql_rows(where, params):
    sql = AGGREGATE_SQL.format(where=where, failed=_sql_list(FAILED), completed=_sql_list(COMPLETED))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    result = []
    for endpoint_id, samples, successes, failures, ttft, e2e, tps, tps_mean, first_at, last_at in rows:
        ttft, e2e, tps = ttft or [None] * 3, e2e or [None] * 3, tps or [None] * 2
        result.append(EndpointFigures(endpoint_id, {
            "ttft_p50": ttft[0], "ttft_p95": ttft[1], "ttft_p99": ttft[2],
            "e2e_p50": e2e[0], "e2e_p95": e2e[1], "e2e_p99": e2e[2],
            "tps_p05": tps[0], "tps_p50": tps[1], "tps_mean": tps_mean,
            "success_rate": 100.0 * successes / samples, "failure_rate": 100.0 * failures / samples,
            "samples": samples,
        }, first_at, last_at))
    return result


def percentile_cont(values, fraction):
    """PostgreSQL's percentile_cont: linear interpolation between ranks floor/ceil of fraction*(n-1)."""
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    position = fraction * (len(values) - 1)
    lower = int(position)
    upper = min(lower + 1, len(values) - 1)
    return values[lower] + (position - lower) * (values[upper] - values[lower])


def _python_rows(queryset):
    """The same figures for databases without percentile_cont (SQLite in `make run`)."""
    groups = {}
    for record in queryset.order_by("endpoint_id", "started_at").values(
        "endpoint_id", "outcome", "ttft_s", "e2e_s", "tokens_per_second", "started_at"
    ):
        groups.setdefault(record["endpoint_id"], []).append(record)
    result = []
    for endpoint_id, records in sorted(groups.items()):
        done = [r for r in records if r["outcome"] in COMPLETED]
        speeds = [r["tokens_per_second"] for r in done if r["tokens_per_second"] is not None]
        n = len(records)
        result.append(EndpointFigures(endpoint_id, {
            **{f"ttft_p{int(p * 100):02d}": percentile_cont([r["ttft_s"] for r in done], p) for p in (0.5, 0.95, 0.99)},
            **{f"e2e_p{int(p * 100):02d}": percentile_cont([r["e2e_s"] for r in done], p) for p in (0.5, 0.95, 0.99)},
            "tps_p05": percentile_cont(speeds, 0.05), "tps_p50": percentile_cont(speeds, 0.5),
            "tps_mean": sum(speeds) / len(speeds) if speeds else None,
            "success_rate": 100.0 * sum(r["outcome"] == "success" for r in records) / n,
            "failure_rate": 100.0 * sum(r["outcome"] in FAILED for r in records) / n,
            "samples": n,
        }, min(r["started_at"] for r in records), max(r["started_at"] for r in records)))
    return result


def figures_for_run(run):
    if connection.vendor == "postgresql":
        return _sql_rows("r.run_id = %s", [run.pk])
    return _python_rows(RequestRecord.objects.filter(run=run))


def figures_for_window(series, start, end):
    """Per endpoint over [start, end) of a series (optionally one region)."""
    if connection.vendor == "postgresql":
        where, params = "r.series_id = %s AND r.started_at >= %s AND r.started_at < %s", [series.pk, start, end]
        if series.region:
            where, params = where + " AND r.region = %s", params + [series.region]
        return _sql_rows(where, params)
    qs = RequestRecord.objects.filter(series=series, started_at__gte=start, started_at__lt=end)
    return _python_rows(qs.filter(region=series.region) if series.region else qs)


def to_decimal(value):
    return Decimal(repr(float(value))).quantize(SIX_PLACES, rounding=ROUND_HALF_EVEN)


def measurements_for(snapshot, rows):
    measurements = []
    for row in rows:
        for figure, metric in FIGURE_METRICS.items():
            value = row.figures.get(figure)
            if value is not None:
                measurements.append(
                    Measurement(snapshot=snapshot, endpoint_id=row.endpoint_id, metric=metric, value=to_decimal(value))
                )
    return measurements


def checksum(measurements):
    """SHA-256 over the sorted endpoint|metric|value lines: the same figures give the same checksum."""
    lines = sorted(f"{m.endpoint_id}|{m.metric}|{m.value.normalize()}" for m in measurements)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _write_snapshot(source, rows, measured_at, publish, **meta):
    snapshot = Snapshot.objects.create(source=source, measured_at=measured_at, **meta)
    measurements = measurements_for(snapshot, rows)
    Measurement.objects.bulk_create(measurements)
    snapshot.checksum = checksum(measurements)
    snapshot.save(update_fields=["checksum"])
    if publish:
        snapshot.publish()
    return snapshot


@transaction.atomic
def aggregate_run(run, publish=True):
    """Write the run's snapshot (one per run). Nothing is written when the run has no records."""
    run = Run.objects.select_for_update().get(pk=run.pk)
    if run.snapshot_id:
        return run.snapshot
    rows = figures_for_run(run)
    if not rows:
        raise ValueError(f"run {run.pk} has no records to aggregate")
    if not run.config.get("endpoints"):
        run.freeze_imported()  # a run fed by files: its Methodology lines come from these records
    first_at = min(r.first_at for r in rows)
    last_at = max(r.last_at for r in rows)
    snapshot = _write_snapshot(
        run.source, rows, run.measured_at or last_at, publish,
        workload=run.workload, effort=run.effort, concurrency=1,
        sample_size=run.frozen_requests_per_endpoint(),
        window_start=run.started_at or first_at, window_end=run.finished_at or last_at,
    )
    run.snapshot = snapshot
    run.status = Run.Status.AGGREGATED
    run.save(update_fields=["snapshot", "status", "config"])
    invalidate_after_commit(keys=())  # the publish bumped its models' keys
    return snapshot


def aggregate_series_period(series, period_end):
    """One snapshot for the rolling window ending at period_end; None when the window holds no records."""
    from datetime import timedelta

    start = period_end - timedelta(hours=series.window_hours)
    with transaction.atomic():
        rows = figures_for_window(series, start, period_end)
        snapshot = None
        if rows:
            snapshot = _write_snapshot(
                series.source, rows, period_end, series.publish,
                workload=f"{series.name}: rolling {series.window_hours} h window", concurrency=1,
                sample_size=sum(r.figures["samples"] for r in rows), window_start=start, window_end=period_end,
            )
            SeriesSnapshot.objects.create(series=series, snapshot=snapshot, window_start=start, window_end=period_end)
        Series.objects.filter(pk=series.pk).update(aggregated_until=period_end)
        series.aggregated_until = period_end
        if snapshot:
            invalidate_after_commit(keys=())  # the publish bumped its models' keys
    return snapshot


def last_period_end(moment, minutes):
    """The newest period boundary at or before `moment`; periods are aligned to the epoch 2000-01-01 UTC."""
    from datetime import UTC, timedelta

    period = timedelta(minutes=minutes)
    epoch = datetime(2000, 1, 1, tzinfo=UTC)
    return epoch + ((moment - epoch) // period) * period


def due_period_ends(series, now):
    """Period boundaries (aligned to the epoch) that passed since the series was last aggregated."""
    from datetime import timedelta

    period = timedelta(minutes=series.period_minutes)
    last_boundary = last_period_end(now, series.period_minutes)
    since = series.aggregated_until or (last_boundary - period)
    ends, end = [], since + period
    while end <= last_boundary:
        ends.append(end)
        end += period
    return ends[-48:]  # after a long outage, catch up at most two days of periods
