"""What a refresh costs after it lands, with and without a long history: the review of changed figures
(reviews/changes.py: every live article read as of the moment before and after the publication) and
the pre-render task that replaces the stored articles. scripts/bench_serving.py runs each once before
and once after adding the past snapshots and prints the ratios."""

import statistics
import time
from decimal import Decimal


def refresh_one_source():
    """A new published snapshot of the article's first benchmark source, every value 2 % up on one
    endpoint in two (what a refresh that moves figures publishes). Returns the snapshot."""
    from django.db import transaction
    from django.utils import timezone

    from benchmarks.models import Measurement, Snapshot

    current = (
        Snapshot.objects.published().filter(source__kind="benchmark").order_by("source_id", "-measured_at", "-pk")
        .defer("raw_payload").first()
    )
    rows = list(current.measurements.values_list("endpoint_id", "metric", "value"))
    with transaction.atomic():
        snapshot = Snapshot.objects.create(
            source_id=current.source_id, measured_at=timezone.now(), status="draft", workload=current.workload,
            raw_payload=f"bench refresh {time.time_ns()}",
        )
        Measurement.objects.bulk_create(
            Measurement(snapshot=snapshot, endpoint_id=endpoint, metric=metric,
                        value=value * Decimal("1.02") if endpoint % 2 else value)
            for endpoint, metric, value in rows
        )
        snapshot.publish()
    return snapshot


def review_seconds(runs=3):
    """Median seconds of the review of changed figures (what the worker runs after a publication),
    over `runs` refreshes; and the number of changes the last one recorded."""
    from reviews.changes import record_changes

    times, changes = [], 0
    for _ in range(runs):
        snapshot = refresh_one_source()
        start = time.perf_counter()
        change_set = record_changes(snapshot)
        times.append(time.perf_counter() - start)
        changes = change_set.items.count() if hasattr(change_set, "items") else 0
    return statistics.median(times), changes


def prerender_seconds(runs=3):
    """Median seconds of the pre-render task after a data change retired every stored article."""
    from articles.tasks import prerender_due
    from benchmarks.versioning import bump_content_version

    times, rendered = [], 0
    for _ in range(runs):
        bump_content_version()
        start = time.perf_counter()
        rendered = prerender_due()
        times.append(time.perf_counter() - start)
    return statistics.median(times), rendered
