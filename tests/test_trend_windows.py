"""A trend chart of a first-party series plots its rolling windows (issue 25): one point per window's
aggregate, the value the window's snapshot holds (aggregated in PostgreSQL, checked against Python's statistics module),
labelled with the window it covers, in the table and in the CSV with the window's bounds."""

import csv
import io
import re
import statistics
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.utils import timezone

from firstparty.aggregation import aggregate_series_period
from firstparty.models import Series
from tests.figures_support import make_article
from tests.firstparty.test_aggregation import make_records
from tests.firstparty_support import first_party_source, make_endpoint
from tests.test_trend_chart import LINK, POLYLINE, table_rows

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def test_a_series_trend_plots_one_point_per_rolling_window(client):
    series = Series.objects.create(name="EU probe", source=first_party_source("EU probe series"), window_hours=24)
    endpoint = make_endpoint("acme")
    now = timezone.now().replace(microsecond=0)
    ends = [now - timedelta(hours=hours) for hours in (50, 26, 2)]
    expected = []
    for n, end in enumerate(ends):
        records = make_records(endpoint, series=series, seed=10 + n, count=30, start=end - timedelta(hours=20),
                               step=timedelta(minutes=30))
        aggregate_series_period(series, end)
        done = [r.tokens_per_second for r in records if r.outcome in ("success", "wrong_answer")]
        expected.append(Decimal(str(statistics.median(done))))  # the standard library's median

    block = {"model": endpoint.model.pk, "source": series.source.pk, "metric": "tps_median", "days": 7,
             "name_style": "short", "note": "", "caption_en": ""}
    page = make_article([{"type": "trend_chart", "value": block}], sources=[series.source])
    html = client.get(page.url).text

    [line] = POLYLINE.findall(html)
    assert len(line.split()) == 3
    rows = table_rows(html)
    assert len(rows) == 3 and all(row[0].startswith("24 h window to ") for row in rows)
    printed = [Decimal(row[2]) for row in rows]
    assert printed == [value.quantize(Decimal("0.1")) for value in expected]

    [link] = LINK.findall(html)
    reader = list(csv.reader(io.StringIO(client.get(link).content.decode())))
    assert reader[0][6:8] == ["window start", "window end"]
    assert [(row[6], row[7]) for row in reader[1:]] == [
        ((end - timedelta(hours=24)).strftime("%Y-%m-%dT%H:%M:%SZ"), end.strftime("%Y-%m-%dT%H:%M:%SZ"))
        for end in ends]
    assert [Decimal(row[2]) for row in reader[1:]] == printed  # as printed, and at full precision:
    assert [float(row[5]) for row in reader[1:]] == pytest.approx([float(v) for v in expected], abs=2e-6)

    spanish = client.get(f"/es/{page.slug_es}/").text
    assert all(re.match(r"ventana de 24 h hasta el ", row[0]) for row in table_rows(spanish))
