"""A trend chart may plot a fixed range of dates instead of the last N days: exactly the snapshots
measured on those local days (both included), the range said in the chart's description and in every
CSV row, and the two dates validated in the editor (both or neither, the start before the end)."""

import csv
import datetime
import io
import re

import pytest
from django.core.cache import cache
from django.utils import timezone, translation
from wagtail.blocks.struct_block import StructBlockValidationError

from articles.blocks.trend_chart import TrendChartBlock, date_in_words
from tests.factories import (
    EndpointFactory,
    LanguageModelFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)
from tests.figures_support import make_article
from tests.test_blocks import render
from tests.test_trend_chart import LINK, POLYLINE, table_rows

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


@pytest.fixture
def hosts():
    model = LanguageModelFactory(name="Rangeline", slug="rangeline")
    source = SourceFactory(publisher="Range probe", title="Rangeline providers")
    endpoints = [EndpointFactory(provider=ProviderFactory(name=name, slug=name.lower().replace(" ", "-")), model=model)
                 for name in ("Range A", "Range B")]
    return model, source, endpoints


def local(day, hour=0, minute=0):
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour, minute)))


def block(model, source, start=None, end=None, days=30):
    return {"model": model.pk, "source": source.pk, "metric": "output_speed_median", "days": days,
            "start_date": start.isoformat() if start else None, "end_date": end.isoformat() if end else None,
            "name_style": "short", "note": "", "caption_en": ""}


def week_of_snapshots(source, endpoints):
    """Snapshots on and around the range today-7 .. today-3: {moment: snapshot}, and the ones inside it."""
    today = timezone.localdate()
    start, end = today - datetime.timedelta(days=7), today - datetime.timedelta(days=3)
    moments = {
        "before the first day": local(start) - datetime.timedelta(minutes=1),
        "the first day's midnight": local(start),
        "a day inside": local(start + datetime.timedelta(days=2), 12),
        "the last day's last minute": local(end, 23, 59),
        "the midnight after": local(end + datetime.timedelta(days=1)),
        "yesterday": local(today - datetime.timedelta(days=1), 9),
    }
    made = {}
    for n, (name, moment) in enumerate(moments.items()):
        made[name] = SnapshotFactory(source=source, measured_at=moment, published=True, values=[
            (endpoints[0], "output_speed_median", f"{100 + n}.0"), (endpoints[1], "output_speed_median", f"{50 + n}.0")])
    inside = [made[name] for name in ("the first day's midnight", "a day inside", "the last day's last minute")]
    return start, end, inside


def test_a_fixed_range_plots_exactly_the_snapshots_of_its_days_and_says_so(client, hosts):
    model, source, endpoints = hosts
    start, end, inside = week_of_snapshots(source, endpoints)
    page = make_article([{"type": "trend_chart", "value": block(model, source, start, end)}], sources=[source])
    html = client.get(page.url).text

    assert [len(line.split()) for line in POLYLINE.findall(html)] == [3, 3]  # the 30 days would hold six
    rows = table_rows(html)
    assert [row[2] for row in rows] == ["101.0", "51.0", "102.0", "52.0", "103.0", "53.0"]
    words = f"from {date_in_words(start)} to {date_in_words(end)}"
    desc = re.search(r"<desc[^>]*>([^<]+)</desc>", html).group(1)
    assert f"measured by Range probe · Rangeline providers, {words}. 6 points plotted." in desc
    assert "last 30 days" not in desc
    assert re.search(rf'<caption class="visually-hidden">[^<]*{re.escape(words)}</caption>', html)

    [link] = LINK.findall(html)
    reader = list(csv.reader(io.StringIO(client.get(link).content.decode())))
    assert reader[0][-4:-2] == ["range start", "range end"]
    assert sorted({int(row[3]) for row in reader[1:]}) == sorted(snapshot.pk for snapshot in inside)
    assert [row[2] for row in reader[1:]] == [row[2] for row in rows]  # the plotted points, in the table's order
    assert {(row[-4], row[-3]) for row in reader[1:]} == {(start.isoformat(), end.isoformat())}
    assert {(row[-2], row[-1]) for row in reader[1:]} == {("Output speed", "tokens/s")}  # what the values measure

    spanish = client.get(f"/es/{page.slug_es}/").text
    with translation.override("es"):
        spanish_words = f"del {date_in_words(start)} al {date_in_words(end)}"
    assert spanish_words in re.search(r"<desc[^>]*>([^<]+)</desc>", spanish).group(1)
    assert len(table_rows(spanish)) == 6


def test_the_rolling_days_still_apply_without_dates_and_only_they_expire_points(hosts):
    model, source, endpoints = hosts
    start, end, _inside = week_of_snapshots(source, endpoints)
    html, _text, data = render("trend_chart", block(model, source))
    assert [len(line.split()) for line in POLYLINE.findall(html)] == [6, 6]
    assert data.trend_changes()  # each point leaves the last 30 days one day
    _html, _text, fixed = render("trend_chart", block(model, source, start, end))
    assert fixed.trend_changes() == []  # a fixed range keeps its points


def test_a_fixed_range_without_data_names_its_dates(hosts):
    model, source, endpoints = hosts
    start = timezone.localdate() - datetime.timedelta(days=60)
    end = start + datetime.timedelta(days=5)
    html, text, _data = render("trend_chart", block(model, source, start, end))
    assert "<svg" not in html
    sentence = f"No published measurements of this model by this source from {date_in_words(start)} to " \
               f"{date_in_words(end)}."
    assert "".join(sentence.split()) in text
    _html, spanish, _data = render("trend_chart", block(model, source, start, end), language="es")
    assert "Nohaymedicionespublicadasdeestemodeloporestafuentedel" in spanish


@pytest.mark.parametrize(("start", "end", "field", "message"), [
    ("2026-03-10", "2026-03-01", "end_date", "The end date must be after the start date."),
    ("2026-03-10", "2026-03-10", "end_date", "The end date must be after the start date."),
    ("2026-03-10", None, "end_date", "A fixed range needs both dates; leave both empty to plot the last N days."),
    (None, "2026-03-10", "start_date", "A fixed range needs both dates; leave both empty to plot the last N days."),
])
def test_the_editor_is_told_what_is_wrong_with_the_dates(hosts, start, end, field, message):
    model, source, _endpoints = hosts
    chart = TrendChartBlock()
    value = chart.to_python({**block(model, source), "start_date": start, "end_date": end})
    with pytest.raises(StructBlockValidationError) as raised:
        chart.clean(value)
    assert list(raised.value.block_errors) == [field]
    assert raised.value.block_errors[field].messages == [message]
    with translation.override("es"):
        spanish = str(raised.value.block_errors[field].messages[0])  # a lazy message, read in the editor's language
    assert spanish.startswith(("La fecha final", "Un intervalo fijo"))


def test_valid_dates_or_none_pass(hosts):
    model, source, _endpoints = hosts
    chart = TrendChartBlock()
    for start, end in (("2026-03-01", "2026-03-10"), (None, None)):
        value = chart.clean(chart.to_python({**block(model, source), "start_date": start, "end_date": end}))
        assert value.span().fixed == bool(start)
