"""A trend line marks each point where what stands behind it changes from the line's previous point:
the snapshot's method (workload, effort, concurrency; a run's frozen request settings) and, for a chart
of any source, the source. The mark is on the line (a triangle), in the key under the chart, in the
point's tooltip, in its table row and in its CSV row, saying what changed, in English and in Spanish."""

import csv
import datetime
import io
import re

import pytest
from django.core.cache import cache
from django.utils import timezone

from firstparty.models import Run
from tests.factories import (
    EndpointFactory,
    LanguageModelFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)
from tests.figures_support import make_article
from tests.pagecheck import squeeze, visible_text
from tests.test_blocks import render
from tests.test_trend_chart import LINK, POLYLINE, table_rows

pytestmark = pytest.mark.django_db

FLAG = re.compile(r'<polygon class="trend-change"')
WORKLOAD = "Method changed: workload 10,000-token input → 1,000-token input"
WORKLOAD_ES = "Cambio de método: carga de trabajo 10,000-token input → 1,000-token input"


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


@pytest.fixture
def hosts():
    model = LanguageModelFactory(name="Changeline", slug="changeline")
    endpoints = [EndpointFactory(provider=ProviderFactory(name=name, slug=name.lower().replace(" ", "-")), model=model)
                 for name in ("Host A", "Host B")]
    return model, endpoints


def snapshot(source, endpoints, days, speeds, **method):
    return SnapshotFactory(
        source=source, measured_at=timezone.now() - datetime.timedelta(days=days, hours=1), published=True,
        values=[(endpoint, "output_speed_median", speed) for endpoint, speed in zip(endpoints, speeds, strict=True)],
        **method)


def block(model, source):
    return {"model": model.pk, "source": source.pk if source else None, "metric": "output_speed_median", "days": 7,
            "name_style": "short", "note": "", "caption_en": ""}


def titles(html):
    return re.findall(r"<title>([^<]+)</title>", html)


def csv_rows(client, html):
    [link] = LINK.findall(html)
    return list(csv.reader(io.StringIO(client.get(link).content.decode())))


def test_a_change_of_workload_is_marked_on_each_line_in_the_key_tooltip_table_and_csv(client, hosts):
    model, endpoints = hosts
    source = SourceFactory(publisher="Bench one", title="Changeline providers")
    snapshot(source, endpoints, 3, ("120.0", "80.0"))
    snapshot(source, endpoints, 2, ("121.0", "81.0"))
    newest = snapshot(source, endpoints, 1, ("150.0", "95.0"), workload="1,000-token input")
    page = make_article([{"type": "trend_chart", "value": block(model, source)}], sources=[source])
    html = client.get(page.url).text

    assert [len(line.split()) for line in POLYLINE.findall(html)] == [3, 3]
    assert len(FLAG.findall(html)) == 2  # one triangle per line, at the newest point
    for series in re.findall(r'<g class="trend-series".*?</g>', html, re.S):
        points = re.findall(r'<circle class="trend-point".*?</circle>', series, re.S)
        assert [WORKLOAD in point for point in points] == [False, False, True]
    assert sum(WORKLOAD in title for title in titles(html)) == 2
    text = squeeze(visible_text(html))
    assert squeeze("A change of method or source from the line's previous point") in text
    desc = re.search(r"<desc[^>]*>([^<]+)</desc>", html).group(1)
    assert desc.endswith("6 points plotted; 2 changes of method or source marked.")

    rows = table_rows(html)
    assert [row[4] for row in rows] == ["", "", "", "", WORKLOAD, WORKLOAD]
    assert len(re.findall(r"<tr class=\"changed\">", html)) == 2

    reader = csv_rows(client, html)
    change = reader[0].index("change")
    assert [(row[3], row[change]) for row in reader[1:]] == [
        (row[3], WORKLOAD if row[3] == str(newest.pk) else "") for row in reader[1:]]
    assert sum(1 for row in reader[1:] if row[change]) == 2

    spanish = client.get(f"/es/{page.slug_es}/").text
    assert sum(WORKLOAD_ES in title for title in titles(spanish)) == 2
    assert [row[4] for row in table_rows(spanish)][-2:] == [WORKLOAD_ES, WORKLOAD_ES]
    assert squeeze("Un cambio de método o de fuente respecto al punto anterior de la línea") in squeeze(
        visible_text(spanish))
    assert "2 cambios de método o de fuente señalados" in re.search(r"<desc[^>]*>([^<]+)</desc>", spanish).group(1)
    spanish_csv = csv_rows(client, spanish)
    assert spanish_csv[0][9] == "cambio" and [row[9] for row in spanish_csv[1:]][-2:] == [WORKLOAD_ES] * 2


def test_effort_and_concurrency_changes_are_named_with_their_values(hosts):
    model, endpoints = hosts
    source = SourceFactory(publisher="Bench one", title="Changeline providers")
    snapshot(source, endpoints, 2, ("120.0", "80.0"))
    snapshot(source, endpoints, 1, ("122.0", "82.0"), effort="Low", concurrency=8)
    html, _text, data = render("trend_chart", block(model, source))
    expected = "Method changed: effort / configuration High → Low; concurrency not stated → 8"
    assert sum(expected in title for title in titles(html)) == 2
    assert len(FLAG.findall(html)) == 2


def test_an_unchanged_method_marks_nothing(hosts):
    model, endpoints = hosts
    source = SourceFactory()
    for days in (3, 2, 1):
        snapshot(source, endpoints, days, ("120.0", "80.0"))
    html, text, _data = render("trend_chart", block(model, source))
    assert not FLAG.findall(html) and "Method changed" not in html and "Source changed" not in html
    assert "Achangeofmethodorsource" not in text


def test_with_no_source_chosen_a_switch_of_source_is_marked_and_each_point_names_its_source(client, hosts):
    model, endpoints = hosts
    first = SourceFactory(publisher="Bench one", title="Changeline providers")
    second = SourceFactory(publisher="Bench two", title="Changeline runs")
    snapshot(first, endpoints, 4, ("120.0", "80.0"))
    snapshot(first, endpoints, 3, ("121.0", "81.0"))
    snapshot(second, endpoints, 2, ("131.0", "90.0"))
    snapshot(first, endpoints, 1, ("122.0", "82.0"))
    page = make_article([{"type": "trend_chart", "value": block(model, None)}], sources=[first, second])
    html = client.get(page.url).text

    assert [len(line.split()) for line in POLYLINE.findall(html)] == [4, 4]  # every source's snapshots
    there = "Source changed: Bench one · Changeline providers → Bench two · Changeline runs"
    back = "Source changed: Bench two · Changeline runs → Bench one · Changeline providers"
    assert sum(there in title for title in titles(html)) == 2
    assert sum(back in title for title in titles(html)) == 2
    assert len(FLAG.findall(html)) == 4
    desc = re.search(r"<desc[^>]*>([^<]+)</desc>", html).group(1)
    assert ("newest data of any source (Bench one · Changeline providers, Bench two · Changeline runs)" in desc)

    rows = table_rows(html)
    assert [row[4] for row in rows] == ["", "", "", "", there, there, back, back]
    assert [row[5] for row in rows] == ["Bench one · Changeline providers"] * 4 + [
        "Bench two · Changeline runs"] * 2 + ["Bench one · Changeline providers"] * 2

    reader = csv_rows(client, html)
    source, change = reader[0].index("source"), reader[0].index("change")
    assert [(row[source], row[change]) for row in reader[1:]] == [(row[5], row[4]) for row in rows]

    spanish = client.get(f"/es/{page.slug_es}/").text
    assert sum("Cambio de fuente: Bench one · Changeline providers → Bench two · Changeline runs" in title
               for title in titles(spanish)) == 2
    assert "datos más recientes de cualquier fuente" in re.search(r"<desc[^>]*>([^<]+)</desc>", spanish).group(1)


def test_a_runs_frozen_request_settings_are_part_of_its_method(hosts):
    model, endpoints = hosts
    source = SourceFactory(publisher="us", title="Changeline runs", kind="first_party")
    for days, max_tokens in ((3, 256), (2, 256), (1, 512)):
        made = snapshot(source, endpoints, days, ("120.0", "80.0"), workload="600 tasks", effort="", concurrency=1)
        settings = {"max_tokens": max_tokens, "temperature": 0.0, "top_p": 1.0, "reasoning_effort": "", "json_mode": True}
        Run.objects.create(name=f"run {days}", source=source, snapshot=made, status=Run.Status.AGGREGATED,
                           config={"tokenizer": "usage", "endpoints": {str(e.pk): settings for e in endpoints}})
    html, _text, _data = render("trend_chart", block(model, source))
    assert sum("Method changed: max tokens 256 → 512" in title for title in titles(html)) == 2
    assert len(FLAG.findall(html)) == 2
