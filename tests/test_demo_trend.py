"""The demo has history to show (issue 25): the scorecard's trend chart plots the demo probe series'
rolling windows, each point the median of that window's request records (checked against Python's
statistics module), in English and in Spanish."""

import statistics
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.cache import cache

from benchmarks.models import Provider
from firstparty.demo_series import HOSTS, IMPROVES, NAME
from firstparty.models import RequestRecord, Series
from tests.test_trend_chart import POLYLINE, table_rows

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def window_median(series, endpoint, end):
    records = RequestRecord.objects.filter(series=series, endpoint=endpoint, started_at__gte=end - timedelta(hours=24),
                                           started_at__lt=end, outcome__in=("success", "wrong_answer"))
    return Decimal(str(statistics.median(r.ttft_s for r in records)))


def test_the_scorecard_plots_the_probe_series_window_by_window(client, demo_site):
    series = Series.objects.get(name=NAME)
    windows = list(series.snapshots.order_by("window_end"))
    assert len(windows) == 15  # a week of windows twice a day, both ends included

    html = client.get("/en/glm-5-3-flash-providers/").text
    lines = POLYLINE.findall(html)
    assert len(lines) == len(HOSTS)
    assert all(len(line.split()) >= 14 for line in lines)  # the chart's 7 days hold (almost) every window

    rows = table_rows(html)
    assert rows and all(row[0].startswith("24 h window to ") for row in rows)
    last = windows[-1]
    by_name = {}
    for row in rows:
        by_name.setdefault(row[1], []).append(Decimal(row[2].replace(",", "")))
    for endpoint in {m.endpoint for m in last.snapshot.measurements.select_related("endpoint__provider")}:
        name = endpoint.provider.name
        printed = by_name[name][-1]  # seconds, as printed (two decimals)
        expected = window_median(series, endpoint, last.window_end)
        assert printed == expected.quantize(printed), (name, printed, expected)
    improving = Provider.objects.get(slug=IMPROVES).name
    assert by_name[improving][-1] < by_name[improving][0] * Decimal("0.85")  # the change the chart is there to show

    spanish = client.get("/es/proveedores-glm-5-3-flash/").text
    assert len(POLYLINE.findall(spanish)) == len(HOSTS)
    assert all(row[0].startswith("ventana de 24 h hasta el ") for row in table_rows(spanish))


def test_loading_the_demo_twice_adds_no_window(demo_site):
    from articles.demo import load_demo_site

    before = Series.objects.get(name=NAME).snapshots.count()
    load_demo_site()
    assert Series.objects.get(name=NAME).snapshots.count() == before
