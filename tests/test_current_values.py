"""Pages read today's values from the current-value table kept at publish time: the same queries
with no history and with many past snapshots per source, and the newest published value wins
(an older snapshot published late does not, a correction does)."""

import datetime
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from benchmarks.current import CurrentMeasurement
from benchmarks.models import Measurement, Snapshot
from tests.factories import EndpointFactory, SnapshotFactory, SourceFactory
from tests.test_render_cost import build_article

pytestmark = pytest.mark.django_db


def add_history(page, count):
    """`count` older published snapshots for each benchmark source the article shows."""
    for item in page.page_sources.select_related("source"):
        source = item.source
        current = Snapshot.objects.filter(source=source, status="published").first()
        if current is None:
            continue
        rows = list(current.measurements.all())
        for n in range(count):
            SnapshotFactory(
                source=source,
                measured_at=current.measured_at - datetime.timedelta(hours=2 + n),
                values=[(row.endpoint, row.metric, row.value + 1 + n) for row in rows],
                published=True,
            )


def render(client, page):
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(page.url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response.text


def test_render_queries_and_figures_do_not_change_with_history(client, demo_site):
    page = build_article(demo_site, 5)
    render(client, page)  # the first render after a publication keeps when it went live (articles/live_since.py)
    before_queries, before_text = render(client, page)
    add_history(page, 30)
    after_queries, after_text = render(client, page)
    assert after_queries == before_queries
    # The same figures: the older snapshots (all with larger values) are history, not current.
    assert after_text.count('class="provider-card"') == before_text.count('class="provider-card"') == 5
    from benchmarks.models import LanguageModel

    shown = LanguageModel.objects.filter(name__startswith="Model 5-1-")
    latest = Measurement.objects.latest(metrics=["output_speed_median"], models=shown)
    assert sorted(int(m.value) for m in latest) == sorted([100 + p for p in range(5)] * 2)


def test_older_snapshot_published_late_does_not_replace_the_current_value(demo_site):
    from tests.factories import EndpointFactory, SourceFactory

    endpoint = EndpointFactory()
    source = SourceFactory()
    now = timezone.now()
    SnapshotFactory(source=source, measured_at=now, values=[(endpoint, "output_speed_median", 200)], published=True)
    SnapshotFactory(source=source, measured_at=now - datetime.timedelta(days=1),
                    values=[(endpoint, "output_speed_median", 150)], published=True)
    [row] = Measurement.objects.latest(endpoints=[endpoint])
    assert row.value == Decimal("200")
    assert CurrentMeasurement.objects.filter(endpoint=endpoint).count() == 1


def test_a_correction_becomes_current_and_the_superseded_value_leaves(demo_site):
    from tests.factories import EndpointFactory, SourceFactory

    endpoint = EndpointFactory()
    source = SourceFactory()
    original = SnapshotFactory(source=source, values=[(endpoint, "output_speed_median", 200)], published=True)
    correction = Snapshot.objects.create(source=source, measured_at=original.measured_at, workload=original.workload)
    Measurement.objects.create(snapshot=correction, endpoint=endpoint, metric="output_speed_median", value=180)
    original.publish_correction(correction, "re-measured")
    [row] = Measurement.objects.latest(endpoints=[endpoint])
    assert (row.value, row.snapshot_id) == (Decimal("180"), correction.pk)
    # "As of" questions still read the history.
    [past] = Measurement.objects.latest(endpoints=[endpoint], as_of=timezone.now())
    assert past.snapshot_id == correction.pk


def test_rebuild_matches_what_publishing_left(demo_site):
    before = set(CurrentMeasurement.objects.values_list("endpoint_id", "metric", "source_id", "measurement_id"))
    CurrentMeasurement.rebuild(CurrentMeasurement.objects.values_list("source_id", flat=True))
    after = set(CurrentMeasurement.objects.values_list("endpoint_id", "metric", "source_id", "measurement_id"))
    assert before == after and len(after) > 100


def test_a_snapshot_publishes_inside_a_bulk_load_that_turned_reference_indexing_off():
    """Loading the demo turns Wagtail's reference index off around everything; publishing a snapshot
    inside it must leave that switch to the caller (Wagtail's switch does not nest)."""
    from wagtail.signal_handlers import disable_reference_index_auto_update

    source = SourceFactory()
    endpoint = EndpointFactory()
    with disable_reference_index_auto_update():
        snapshot = SnapshotFactory(source=source, values=[(endpoint, "output_speed_median", 100)])
        snapshot.publish()
        SnapshotFactory(source=source, values=[(endpoint, "output_speed_median", 101)], published=True)
    assert snapshot.status == "published"
