"""Trend chart: one metric over time per endpoint of a model, from one source's published snapshots.

For a first-party series those snapshots are its rolling windows (firstparty/aggregation.py): each
window's aggregate is one point, dated by the window's end and labelled with its length.

Drawn on the server as inline SVG (articles/charts/svg.py), with the plotted points in a table a
reader opens without the picture, and in the block's CSV (`csv_table`): the three hold the same points.

Each snapshot in the range gives one point per endpoint. A snapshot replaced by a published
correction shows the correction's value (the correction is the snapshot in force), marked on the line
with its note. All points come from one source, so a change of source cannot happen inside a chart and
is not marked; a reader comparing sources uses one chart per source.
"""

from datetime import datetime, time, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from wagtail import blocks

from articles.charts import svg
from articles.figures import Figure
from benchmarks.formatting import format_metric, printed_number
from benchmarks.metrics import get_metric
from benchmarks.querysets import rank_rows

from .base import (
    NAME_STYLE_CHOICES,
    DataBlockMixin,
    endpoint_name,
    metric_choice,
    model_chooser,
    once_per_render,
    source_chooser,
)
from .inline_text import caption_block, caption_text, note_block

DEFAULT_DAYS = 30


def date_in_words(moment):
    from articles.templatetags.article_tags import _date_in_words

    return _date_in_words(moment)


def window_words(snapshot):
    """A first-party point is the aggregate of a window of requests (a rolling window of a series, or
    a run's span): "24 h window to Dec. 3, 2026, 10:00", since several windows may end on one day."""
    start, end = snapshot.window_start, snapshot.window_end
    if not (start and end and end > start):
        return ""
    hours = round((end - start).total_seconds() / 3600)
    moment = f"{date_in_words(end)}, {timezone.localtime(end):%H:%M}"
    return _("%(hours)s h window to %(moment)s") % {"hours": hours, "moment": moment}


def tick_date(moment):
    from articles.templatetags.article_tags import short_date

    return short_date(moment)


def day_ticks(since, until, box, count=6):
    """Local midnights from `since` to `until`, every few days, placed on the x axis."""
    scale = svg.Scale(since.timestamp(), until.timestamp(), box["left"], box["right"])
    first, last = timezone.localtime(since).date(), timezone.localtime(until).date()
    step = max(1, -(-(last - first).days // count))  # ceiling: at most about `count` ticks
    ticks, day = [], last
    while day >= first:
        moment = timezone.make_aware(datetime.combine(day, time()))
        if moment >= since:
            ticks.append({"x": svg.num(scale(moment.timestamp())), "label": tick_date(moment)})
        day -= timedelta(days=step)
    return list(reversed(ticks)), scale


class TrendChartValue(blocks.StructValue):
    def days(self):
        return self.get("days") or DEFAULT_DAYS

    def points(self, data, metric):
        """[(endpoint, [measurement…] oldest first)], the endpoint with the best latest value first (the
        order of the names at the lines' ends and of the data table on each date)."""
        series = {}
        for row in data.trend_rows(self["model"], self["source"], metric.key, self.days()):
            series.setdefault(row.endpoint_id, (row.endpoint, []))[1].append(row)
        last = rank_rows([rows[-1] for _endpoint, rows in series.values()], metric)
        return [series[row.endpoint_id] for row in last]

    @once_per_render
    def compute(self, data):
        metric, model, source = get_metric(self["metric"]), self["model"], self["source"]
        days = self.days()
        until = data.now
        since = data.trend_since(days)
        box = svg.plot_box()
        x_ticks, x_scale = day_ticks(since, until, box)
        plotted = self.points(data, metric)
        values = [row.value for _endpoint, rows in plotted for row in rows]
        ticks = svg.nice_ticks(min(values, default=0), max(values, default=0), include_zero=True)
        y_scale = svg.Scale(float(ticks[0]), float(ticks[-1]), box["bottom"], box["top"])
        series, table = [], []
        for index, (endpoint, rows) in enumerate(plotted):
            name = endpoint_name(endpoint, self["name_style"])
            points = [self.point(row, name, metric, x_scale, y_scale, len(table) + n) for n, row in enumerate(rows)]
            table += points
            series.append({"name": name, "colour": svg.colour(index), "points": points,
                           "polyline": svg.points_attr((p["cx"], p["cy"]) for p in points)})
        ends = svg.spread([s["points"][-1]["cy"] for s in series])
        for line, y in zip(series, ends, strict=True):
            line["label_y"] = svg.num(y + 4)  # + 4: the text's middle on the line's end
        table.sort(key=lambda p: (p["moment"], p["order"]))
        caption = caption_text(self["caption_en"], data) or _("%(metric)s over time · %(model)s (%(unit)s)") % {
            "metric": metric.label, "model": model.name, "unit": metric.unit}
        corrected = sum(1 for point in table if point["corrected"])
        return {
            "caption": caption, "metric": metric, "series": series, "table": table, "box": box,
            "x_ticks": x_ticks, "sources": [source],
            "y_ticks": [{"y": svg.num(y_scale(t)), "label": format_metric(metric, t, suffix=False)} for t in ticks],
            "corrected": corrected, "uid": f"trend-{id(self):x}",
            "description": self.description(metric, model, source, days, since, until, series, len(table), corrected),
        }

    def point(self, row, name, metric, x_scale, y_scale, order):
        text = format_metric(metric, row.value, suffix=False)
        snapshot = row.snapshot
        # A correction copies its whole snapshot: a point is corrected where its value differs from
        # the one it replaced (articles/charts/data.py reads that value in the same query).
        corrected = snapshot.supersedes_id is not None and getattr(row, "replaced_value", None) != row.value
        when = window_words(snapshot) or date_in_words(snapshot.measured_at)
        tooltip = f"{name} · {when}: {text} {metric.unit}"
        if corrected:
            tooltip += " · " + _("Corrected: %(note)s") % {"note": snapshot.correction_note}
        was = ""
        if corrected and getattr(row, "replaced_value", None) is not None:
            was = format_metric(metric, row.replaced_value, suffix=False)
            tooltip += " " + _("(was %(value)s)") % {"value": was}
        return {
            "row": row, "name": name, "text": text, "date": when, "moment": snapshot.measured_at, "order": order,
            "corrected": corrected, "note": snapshot.correction_note if corrected else "", "was": was, "tooltip": tooltip,
            "cx": (cx := x_scale(snapshot.measured_at.timestamp())), "cy": (cy := y_scale(row.value)),
            "at": {"x": svg.num(cx), "y": svg.num(cy)}, "diamond": svg.diamond(cx, cy),
            "figure": Figure(
                row=name, column=f"{metric.label} · {when}", text=text, endpoint=row.endpoint, metric=metric.key,
                measurements=(row,), value=printed_number(metric, row.value), unit=str(metric.unit),
                # One point per endpoint and snapshot time: a correction keeps its original's time, so the
                # review reports a corrected point as that point changing. A past point is never "stale".
                slot=f"trend:{row.endpoint_id}:{metric.key}:{snapshot.measured_at.isoformat()}",
                extra={"corrected": corrected},
            ),
        }

    @staticmethod
    def description(metric, model, source, days, since, until, series, count, corrected):
        text = ngettext(
            "%(metric)s (%(unit)s) of %(model)s for %(n)s provider, measured by %(source)s, "
            "over the last %(days)s days (%(since)s to %(until)s).",
            "%(metric)s (%(unit)s) of %(model)s for %(n)s providers, measured by %(source)s, "
            "over the last %(days)s days (%(since)s to %(until)s).",
            len(series),
        ) % {"metric": metric.label, "unit": metric.unit, "model": model.name, "n": len(series),
             "source": source, "days": days, "since": date_in_words(since), "until": date_in_words(until)}
        text += " " + ngettext("%(n)s point plotted", "%(n)s points plotted", count) % {"n": count}
        if corrected:
            text += "; " + ngettext("%(n)s corrected", "%(n)s corrected", corrected) % {"n": corrected}
        return text + "."

    def figures(self, data):
        return [point["figure"] for point in self.compute(data)["table"]]

    def csv_table(self, data):
        """(headers, rows) of the block's CSV: exactly the plotted points, oldest first."""
        from articles.downloads import moment_text

        headers = [_("date"), _("endpoint"), _("value"), _("snapshot id"), _("corrected"), _("full precision"),
                   _("window start"), _("window end")]
        rows = []
        for point in self.compute(data)["table"]:
            snapshot = point["row"].snapshot
            window = [moment_text(m) if m else "" for m in (snapshot.window_start, snapshot.window_end)]
            rows.append([moment_text(point["moment"]), str(point["row"].endpoint), point["figure"].value,
                         point["row"].snapshot_id, _("yes") if point["corrected"] else "", point["row"].value, *window])
        return headers, rows


class TrendChartBlock(DataBlockMixin, blocks.StructBlock):
    offers_download = True  # a "Download CSV" link and a …/data/csv/<block id>/ file of the plotted points
    model = model_chooser()
    source = source_chooser(help_text=gettext_lazy("The benchmark whose published snapshots are plotted."))
    metric = metric_choice(default="output_speed_median")
    days = blocks.IntegerBlock(
        default=DEFAULT_DAYS, min_value=1, max_value=365, label=gettext_lazy("last N days"),
        help_text=gettext_lazy("Every published snapshot of the source measured in this many days before the page."),
    )
    name_style = blocks.ChoiceBlock(choices=NAME_STYLE_CHOICES, default="short", label=gettext_lazy("provider names"))
    note = note_block(label=gettext_lazy("note under the chart"))
    caption_en = caption_block(
        label=gettext_lazy("caption"),
        help_text=gettext_lazy("Empty: “<metric> over time · <model> (<unit>)”."),
    )

    class Meta:
        icon = "table"
        label = gettext_lazy("Trend chart")
        template = "articles/blocks/trend_chart.html"
        value_class = TrendChartValue

    result_name = "chart"

    def trend_requirement(self, value):
        """What the page loads for this block (articles/charts/data.py); nothing while it is incomplete."""
        if self.missing_fields(value):
            return None
        return value["model"], value["source"], value["metric"], value.days()

    def csv_table(self, value, data):
        return value.csv_table(data)
