"""Ingest at scale: a changed same-day refresh does not load stored upstream payloads (its peak
memory does not grow with history), and imports skip Wagtail's per-measurement reference indexing."""

import datetime
import json
import tracemalloc

from django.utils import timezone

from benchmarks.models import RefreshRun, Snapshot

from .refresh_support import (
    OPENROUTER_GLM,
    example_json,
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
    world_fixture,  # noqa: F401  (the world fixture)
)

PAYLOAD = 2_000_000  # bytes of upstream text stored verbatim with each snapshot


def test_a_changed_same_day_run_does_not_load_history_payloads(world, fake_upstream, django_capture_on_commit_callbacks):
    from benchmarks.ingest.refresh import run_refresh

    body = example_json("synthetic_openrouter_z-ai_glm-5.3_endpoints.json")
    body["padding"] = "p" * PAYLOAD  # a large upstream document; raw_payload keeps it whole

    def run(speed):
        body["data"]["endpoints"][0]["throughput_last_30m"]["p50"] = speed  # a measurement changes, prices do not
        fake_upstream.set(OPENROUTER_GLM, json.dumps(body))
        tracemalloc.start()
        with django_capture_on_commit_callbacks(execute=True):
            result = run_refresh(world.openrouter.pk)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert result.status == RefreshRun.Status.CHANGED, result.error
        return peak

    run(150.0)  # records today's prices, attached to a snapshot holding the large payload
    small = run(151.0)
    # Twenty more stored documents of the same size: 40 MB of history.
    Snapshot.objects.bulk_create(
        Snapshot(source=world.openrouter, status="published", raw_payload="h" * PAYLOAD,
                 measured_at=timezone.now() - datetime.timedelta(days=n + 1))
        for n in range(20)
    )
    large = run(152.0)
    assert large < small + PAYLOAD, (small, large)


def test_import_does_not_index_each_measurement(db):
    from wagtail.models import ReferenceIndex

    from benchmarks.models import Measurement
    from tests.factories import EndpointFactory, SnapshotFactory

    endpoints = [EndpointFactory() for _ in range(5)]
    snapshot = SnapshotFactory(values=[(e, "output_speed_median", 100) for e in endpoints], published=True)
    snapshot.save()  # a save re-indexes the snapshot and, before, every measurement in it
    paths = list(ReferenceIndex.get_references_for_object(snapshot).values_list("model_path", flat=True))
    assert not any(path.startswith("measurements") for path in paths), paths
    assert Measurement.objects.filter(snapshot=snapshot).count() == 5
