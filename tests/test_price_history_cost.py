"""A page's current prices are read endpoint by endpoint along the index, so the cost follows the
endpoints asked for, not the price history (issue 28: as-of queries' cost follows the figures asked
for). A price list refreshed every 15 minutes records every price again each time: DISTINCT ON, like
the window function before it, read and sorted every past price of the page's models."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from benchmarks.models import Price, Snapshot
from tests.factories import EndpointFactory, LanguageModelFactory, SourceFactory
from tests.refresh_support import staged_history
from tests.test_as_of_cost import nodes, plan

pytestmark = pytest.mark.django_db
ENDPOINTS = 8


def price_rows(tree):
    return sum(
        (node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)) * node.get("Actual Loops", 1)
        for node in nodes(tree) if node.get("Relation Name") == "benchmarks_price"
    )


def add_price_lists(source, endpoints, start, count):
    """`count` older published price-list snapshots (days start+1 … start+count ago), one price each."""
    today = timezone.localdate()
    with staged_history():
        olds = Snapshot.objects.bulk_create(
            Snapshot(source=source, measured_at=timezone.now() - datetime.timedelta(days=start + n + 1),
                     published_at=timezone.now() - datetime.timedelta(days=start + n + 1), status="published")
            for n in range(count)
        )
        Price.objects.bulk_create(
            (Price(endpoint=e, snapshot=old, source=source, currency="USD", input_per_m=Decimal(n),
                   output_per_m=Decimal(n), effective_date=today - datetime.timedelta(days=start + n + 1))
             for n, old in enumerate(olds) for e in endpoints),
            batch_size=5000,
        )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE benchmarks_price")
        cursor.execute("ANALYZE benchmarks_snapshot")


def test_current_prices_read_the_same_rows_with_200_and_2000_past_price_lists():
    model = LanguageModelFactory()
    endpoints = [EndpointFactory(model=model) for _ in range(ENDPOINTS)]
    source = SourceFactory(kind="price_list")
    newest = Snapshot.objects.create(source=source, measured_at=timezone.now())
    Price.objects.bulk_create(Price(endpoint=e, snapshot=newest, source=source, currency="USD",
                                    input_per_m=Decimal("0.5"), output_per_m=Decimal("1.5"),
                                    effective_date=timezone.localdate()) for e in endpoints)
    newest.publish()
    read = {}
    for size, added in ((200, 200), (2000, 1800)):
        add_price_lists(source, endpoints, size - added, added)
        queryset = Price.objects.current(models=[model])
        read[size] = price_rows(plan(queryset))
        prices = list(queryset)
        assert {price.snapshot_id for price in prices} == {newest.pk} and len(prices) == ENDPOINTS
        # 30 hours ago: the list published two days ago was in force (yesterday's came later).
        before = list(Price.objects.current(models=[model], as_of=timezone.now() - datetime.timedelta(hours=30)))
        assert len(before) == ENDPOINTS and {price.input_per_m for price in before} == {Decimal(1)}
    assert read[2000] <= read[200], read
    assert read[2000] < 10 * ENDPOINTS, read  # a few rows per endpoint, not 8 × 2,000
