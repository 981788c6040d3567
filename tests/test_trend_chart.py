"""A trend chart plots one metric per endpoint over the last N days from one source's published
snapshots: one line per endpoint, a corrected value marked with its note, and the same points in
the table under the picture and in the block's CSV, in both languages, at a fixed query cost.
(Changes of method or source: tests/test_trend_changes.py; fixed ranges: tests/test_trend_range.py.)"""

import csv
import datetime
import io
import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from articles.charts.svg import nice_ticks, spread
from benchmarks.cache import bump_cache_generation
from benchmarks.models import Measurement, Snapshot
from benchmarks.versioning import bump_content_version
from tests.factories import SnapshotFactory
from tests.figures_support import glm_data, glm_values, make_article
from tests.pagecheck import squeeze, visible_text
from tests.test_blocks import render

pytestmark = pytest.mark.django_db

LINK = re.compile(r'<p class="download-link"><a href="([^"]+)"')
POLYLINE = re.compile(r'<polyline class="trend-line" points="([^"]+)"')
CSV_HEADER = ["date", "endpoint", "value", "snapshot id", "corrected", "full precision", "window start", "window end",
              "source", "change", "range start", "range end", "metric", "unit"]


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def trend(data, **extra):
    value = {"model": data["model"].pk, "source": data["source"].pk, "metric": "output_speed_median", "days": 30,
             "name_style": "short", "note": "", "caption_en": ""}
    value.update(extra)
    return value


def publish_correction(published, changes, note="re-measured"):
    """A correction as the admin starts one (benchmarks/admin/snapshots.start_correction): the snapshot's
    method copied, {(endpoint id, metric): value} replaced, published in place of `published`."""
    draft = Snapshot.objects.create(source=published.source, measured_at=published.measured_at,
                                    workload=published.workload, effort=published.effort,
                                    concurrency=published.concurrency)
    Measurement.objects.bulk_create(
        Measurement(snapshot=draft, endpoint_id=row.endpoint_id, metric=row.metric,
                    value=changes.get((row.endpoint_id, row.metric), row.value))
        for row in published.measurements.all())
    with TestCase.captureOnCommitCallbacks(execute=True):
        published.publish_correction(draft, note)
    bump_content_version(draft.model_keys(published))
    bump_cache_generation()
    return draft


def three_days(data):
    """The source's snapshot of today (glm_data), two earlier ones, and a correction of yesterday's."""
    now = timezone.now()
    older = [
        SnapshotFactory(source=data["source"], measured_at=now - datetime.timedelta(days=days, hours=1),
                        values=glm_values(data, {("zai", "output_speed_median"): speed}), published=True)
        for days, speed in ((2, "148.0"), (1, "151.0"))
    ]
    SnapshotFactory(  # outside the 30-day range: not plotted
        source=data["source"], measured_at=now - datetime.timedelta(days=40), values=glm_values(data), published=True)
    correction = publish_correction(
        older[1], {(data["zai"].pk, "output_speed_median"): Decimal("139.5")}, note="Re-measured after an outage")
    return older, correction


def table_rows(html):
    body = re.search(r'<table class="trend-table">.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = [" ".join(visible_text(cell).split()) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        rows.append(cells)
    return rows


def test_one_line_per_endpoint_with_the_correction_marked_and_the_same_points_in_table_and_csv(client):
    data = glm_data()
    _older, correction = three_days(data)
    page = make_article([{"type": "trend_chart", "value": trend(data)}], sources=[data["source"]])
    html = client.get(page.url).text

    lines = POLYLINE.findall(html)
    assert len(lines) == 4  # Baseten (Fast), Together AI, Z.ai, Novita AI
    assert [len(points.split()) for points in lines] == [3, 3, 3, 3]
    names = re.findall(r'<text class="trend-label"[^>]*>([^<]+)</text>', html)
    assert names == ["Baseten (Fast)", "Together AI", "Z.ai", "Novita AI"]  # best latest value first
    [marker] = re.findall(r'<rect class="trend-point trend-corrected".*?<title>([^<]+)</title>', html, re.S)
    assert marker.startswith("Z.ai · ") and "139.5 tokens/s" in marker
    assert "Corrected: Re-measured after an outage (was 151.0)" in marker
    assert html.count('class="trend-point"') == 11  # the other points are round
    assert 'role="img"' in html and re.search(r'aria-labelledby="[^"]+-title [^"]+-desc"', html)
    desc = re.search(r"<desc[^>]*>([^<]+)</desc>", html).group(1)
    assert "Output speed (tokens/s) of GLM-5.3 for 4 providers" in desc and "last 30 days" in desc
    assert "12 points plotted; 1 corrected." in desc
    # The y axis ticks print as the page prints values, from zero.
    axis = re.search(r'<g class="chart-axis chart-y".*?</g>', html, re.S).group(0)
    assert re.findall(r">([^<]+)</text>", axis) == ["0.0", "100.0", "200.0", "300.0", "tokens/s"]

    rows = table_rows(html)
    assert len(rows) == 12
    corrected = [row for row in rows if row[3]]
    assert corrected == [[corrected[0][0], "Z.ai", "139.5", "Corrected: Re-measured after an outage (was 151.0)"]]
    assert "<polygon" not in html and "<th scope=\"col\">Change</th>" not in html  # one source, one method
    assert {row[2] for row in rows if row[1] == "Z.ai"} == {"148.0", "139.5", "150.4"}
    assert "151.0" not in [row[2] for row in rows]  # the superseded value is not plotted

    [link] = LINK.findall(html)
    response = client.get(link)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    reader = list(csv.reader(io.StringIO(response.content.decode())))
    assert reader[0] == CSV_HEADER
    csv_points = reader[1:]
    assert len(csv_points) == 12
    # The same points in the same order (oldest first): endpoint, value, corrected or not.
    assert [(r[1], r[2], bool(r[4])) for r in csv_points] == [(f"{r[1]} · GLM-5.3", r[2], bool(r[3])) for r in rows]
    assert [r[:10] for r in csv_points if r[4]] == [
        [csv_points[[r[4] for r in csv_points].index("yes")][0], "Z.ai · GLM-5.3", "139.5", str(correction.pk), "yes",
         "139.500000", "", "", "Artificial Analysis · GLM-5.3 providers", ""]]
    # The range the chart covers, on every row: the 30 days before the page, as local dates.
    assert {(r[10], r[11]) for r in csv_points} == {
        (timezone.localtime(timezone.now() - datetime.timedelta(days=30)).date().isoformat(),
         timezone.localdate().isoformat())}
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", r[0]) for r in csv_points)
    assert len({r[3] for r in csv_points}) == 3  # three snapshots in force


def test_spanish_page_labels_the_chart_in_spanish(client):
    data = glm_data()
    three_days(data)
    page = make_article([{"type": "trend_chart", "value": trend(data)}], sources=[data["source"]])
    url = page.url.replace("/en/", "/es/", 1).replace(page.slug_en, page.slug_es)
    html = client.get(url).text
    assert len(POLYLINE.findall(html)) == 4
    text = squeeze(visible_text(html))
    assert squeeze("Velocidad de salida a lo largo del tiempo · GLM-5.3 (tokens/s)") in text
    assert squeeze("Tabla de datos") in text and squeeze("Fecha") in text and squeeze("Proveedor") in text
    assert squeeze("Corregido: Re-measured after an outage") in text
    month = timezone.localdate().strftime("%m")
    spanish_months = ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"]
    assert re.search(rf">\d+ {spanish_months[int(month) - 1]}\.?<", html), "axis dates in Spanish"
    desc = re.search(r"<desc[^>]*>([^<]+)</desc>", html).group(1)
    assert "de GLM-5.3 para 4 proveedores" in desc and "últimos 30 días" in desc
    [link] = LINK.findall(html)
    header = next(csv.reader(io.StringIO(client.get(link).content.decode())))
    assert header == ["fecha", "endpoint", "valor", "id de la instantánea", "corregido", "precisión completa",
                      "inicio de la ventana", "fin de la ventana", "fuente", "cambio", "inicio del intervalo",
                      "fin del intervalo", "métrica", "unidad"]


def test_the_query_count_does_not_grow_with_the_snapshots_plotted(django_assert_num_queries):
    data = glm_data()
    three_days(data)
    with CaptureQueriesContext(connection) as small:
        html, _text, _data = render("trend_chart", trend(data))
    assert [len(p.split()) for p in POLYLINE.findall(html)] == [3] * 4
    now = timezone.now()
    for hours in range(6, 6 * 13, 6):
        SnapshotFactory(source=data["source"], measured_at=now - datetime.timedelta(days=3, hours=hours),
                        values=glm_values(data), published=True)
    with django_assert_num_queries(len(small.captured_queries)):
        html, _text, _data = render("trend_chart", trend(data))
    assert [len(p.split()) for p in POLYLINE.findall(html)] == [15] * 4
    ranged = [q["sql"] for q in small.captured_queries if "measured_at\" >=" in q["sql"]]
    assert len(ranged) == 1  # one query for the rows in range


def test_a_range_without_data_says_so_and_offers_no_file():
    data = glm_data()
    html, text, _data = render("trend_chart", trend(data, source=SnapshotFactory().source.pk))
    assert "<svg" not in html and "Nopublishedmeasurementsofthismodelbythissourceinthelast30days." in text


def test_ticks_are_round_and_labels_do_not_overlap():
    assert nice_ticks(Decimal("105.5"), Decimal("283.4"), include_zero=True) == [
        Decimal(n) for n in (0, 100, 200, 300)]
    assert nice_ticks(Decimal("0.67"), Decimal("2.51")) == [Decimal(n) for n in ("0.5", "1", "1.5", "2", "2.5", "3")]
    placed = spread([100, 102, 300], gap=14, lo=16, hi=292)
    assert placed[1] - placed[0] >= 14 and placed[2] <= 292 and placed[2] - placed[1] >= 14


def test_the_data_page_and_the_article_files_list_every_plotted_point(client):
    data = glm_data()
    three_days(data)
    page = make_article([{"type": "trend_chart", "value": trend(data)}], sources=[data["source"]])
    rows = list(csv.DictReader(io.StringIO(client.get(page.url + "data/csv/").content.decode())))
    assert len(rows) == 12 and {row["block"] for row in rows} == {"Trend chart · GLM-5.3 (block 1)"}
    assert all(row["source"] == "Artificial Analysis · GLM-5.3 providers" for row in rows)
    assert sorted(row["value"] for row in rows if row["endpoint"].startswith("Z.ai")) == ["139.5", "148.0", "150.4"]
    assert len(client.get(page.url + "data/json/").json()["figures"]) == 12
    trail = client.get(page.url + "data/")
    assert trail.status_code == 200 and "139.5" in trail.text


@pytest.mark.usefixtures("without_page_cache")
def test_the_stored_rendering_serves_the_same_points_file(client, settings):
    from articles.prerender import HEADER
    from articles.tasks import prerender_due

    data = glm_data()
    three_days(data)
    settings.ARTICLE_PRERENDER = True
    page = make_article([{"type": "trend_chart", "value": trend(data)}], sources=[data["source"]])
    prerender_due()
    [link] = LINK.findall(client.get(page.url).text)
    stored = client.get(link)
    settings.ARTICLE_PRERENDER = False
    live = client.get(link)
    assert (stored[HEADER], live[HEADER]) == ("stored", "live")
    assert stored.content == live.content
    assert stored.content.decode().splitlines()[0] == ",".join(CSV_HEADER)
