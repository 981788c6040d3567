"""Trend chart: one metric over time per endpoint of a model, from published snapshots.

The snapshots are one source's, or, with the source left empty, every source's (the newest data of
any source at each moment). For a first-party series they are its rolling windows
(firstparty/aggregation.py): each window's aggregate is one point, dated by the window's end and
labelled with its length. The time is the last N days before the page, or a fixed range of dates.

Drawn on the server as inline SVG (articles/charts/svg.py), with the plotted points in a table a
reader opens without the picture, and in the block's CSV (`csv_table`): the three hold the same points.
Tooltips, keyboard access to the points and toggles for the lines are progressive enhancement
(static/articles/js/trend_chart.js); without JavaScript the table is the accessible path.

Each snapshot in the range gives one point per endpoint. A snapshot replaced by a published
correction shows the correction's value (the correction is the snapshot in force), marked on the line
with its note. A point whose source or method differs from the line's previous point is marked too,
saying what changed (articles/charts/changes.py).
"""

from datetime import datetime, time, timedelta

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from wagtail import blocks
from wagtail.blocks.struct_block import StructBlockValidationError

from articles.charts import svg
from articles.charts.changes import changes
from articles.charts.data import Span
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


def unique(items):
    return list(dict.fromkeys(items))


class TrendChartValue(blocks.StructValue):
    def days(self):
        return self.get("days") or DEFAULT_DAYS

    def span(self):
        start, end = self.get("start_date"), self.get("end_date")
        if start and end:
            return Span(start=start, end=end)
        return Span(days=self.days())

    def points(self, data, metric):
        """[(endpoint, [measurement…] oldest first)], the endpoint with the best latest value first (the
        order of the names at the lines' ends and of the data table on each date)."""
        series = {}
        for row in data.trend_rows(self["model"], self["source"], metric.key, self.span()):
            series.setdefault(row.endpoint_id, (row.endpoint, []))[1].append(row)
        last = rank_rows([rows[-1] for _endpoint, rows in series.values()], metric)
        return [series[row.endpoint_id] for row in last]

    @once_per_render
    def compute(self, data):
        metric, model, source, span = get_metric(self["metric"]), self["model"], self["source"], self.span()
        since, until = data.trend_bounds(span)
        box = svg.plot_box()
        x_ticks, x_scale = day_ticks(since, until, box)
        plotted = self.points(data, metric)
        values = [row.value for _endpoint, rows in plotted for row in rows]
        ticks = svg.nice_ticks(min(values, default=0), max(values, default=0), include_zero=True)
        y_scale = svg.Scale(float(ticks[0]), float(ticks[-1]), box["bottom"], box["top"])
        series, table = [], []
        for index, (endpoint, rows) in enumerate(plotted):
            name = endpoint_name(endpoint, self["name_style"])
            points, previous = [], None
            for row in rows:
                points.append(self.point(row, previous, name, metric, x_scale, y_scale, len(table) + len(points)))
                previous = row
            table += points
            series.append({"name": name, "colour": svg.colour(index), "points": points, "index": index,
                           "polyline": svg.points_attr((p["cx"], p["cy"]) for p in points)})
        ends = svg.spread([s["points"][-1]["cy"] for s in series])
        for line, y in zip(series, ends, strict=True):
            line["label_y"] = svg.num(y + 4)  # + 4: the text's middle on the line's end
        table.sort(key=lambda p: (p["moment"], p["order"]))
        sources = [source] if source is not None else unique(p["row"].snapshot.source for p in table)
        caption = caption_text(self["caption_en"], data) or _("%(metric)s over time · %(model)s (%(unit)s)") % {
            "metric": metric.label, "model": model.name, "unit": metric.unit}
        corrected = sum(1 for point in table if point["corrected"])
        changed = sum(1 for point in table if point["changes"])
        facts = {"metric": metric, "model": model, "sources": sources, "span": span, "since": since,
                 "until": until, "lines": len(series), "count": len(table), "corrected": corrected, "changed": changed}
        return {
            "caption": caption, "metric": metric, "series": series, "table": table, "box": box,
            "x_ticks": x_ticks, "sources": sources, "any_source": source is None,
            "y_ticks": [{"y": svg.num(y_scale(t)), "label": format_metric(metric, t, suffix=False)} for t in ticks],
            "corrected": corrected, "changed": changed, "uid": f"trend-{id(self):x}",
            "range_words": self.range_words(span, since, until), "range_cells": self.range_cells(span, since, until),
            "description": self.description(facts), "empty": self.empty_text(source, span, since, until),
        }

    def point(self, row, previous, name, metric, x_scale, y_scale, order):
        text = format_metric(metric, row.value, suffix=False)
        snapshot = row.snapshot
        # A correction copies its whole snapshot: a point is corrected where its value differs from
        # the one it replaced (articles/charts/data.py reads that value in the same query).
        corrected = snapshot.supersedes_id is not None and getattr(row, "replaced_value", None) != row.value
        when = window_words(snapshot) or date_in_words(snapshot.measured_at)
        value = f"{text} {metric.unit}"
        notes = []
        was = ""
        if corrected:
            note = _("Corrected: %(note)s") % {"note": snapshot.correction_note}
            if getattr(row, "replaced_value", None) is not None:
                was = format_metric(metric, row.replaced_value, suffix=False)
                note += " " + _("(was %(value)s)") % {"value": was}
            notes.append(note)
        changed = changes(previous, row)
        notes += [change["text"] for change in changed]
        cx, cy = x_scale(snapshot.measured_at.timestamp()), y_scale(row.value)
        return {
            "row": row, "name": name, "text": text, "date": when, "moment": snapshot.measured_at, "order": order,
            "corrected": corrected, "note": snapshot.correction_note if corrected else "", "was": was,
            "changes": changed, "source": snapshot.source, "value_text": value, "notes": notes,
            "notes_text": "\n".join(notes),  # one line each in the tooltip (static/articles/js/trend_chart.js)
            "row_class": " ".join(mark for mark, on in (("corrected", corrected), ("changed", changed)) if on),
            "tooltip": " · ".join([f"{name} · {when}: {value}", *notes]),
            "cx": cx, "cy": cy, "at": {"x": svg.num(cx), "y": svg.num(cy)}, "diamond": svg.diamond(cx, cy),
            # A small triangle above the point, pointing at it: drawn beside a round or corrected marker.
            "flag": svg.points_attr(((cx - 5, cy - 15), (cx + 5, cy - 15), (cx, cy - 7))) if changed else "",
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
    def range_words(span, since, until):
        if span.fixed:
            return _("from %(since)s to %(until)s") % {"since": date_in_words(span.start),
                                                       "until": date_in_words(span.end)}
        return ngettext(
            "over the last day (%(since)s to %(until)s)",
            "over the last %(days)s days (%(since)s to %(until)s)", span.days,
        ) % {"days": span.days, "since": date_in_words(since), "until": date_in_words(until)}

    @staticmethod
    def range_cells(span, since, until):
        """The range as the CSV states it: its first and last day (local dates), as the description
        words them. Days, not moments: a stored rendering's file and a live one stay the same file."""
        if span.fixed:
            return [span.start.isoformat(), span.end.isoformat()]
        return [timezone.localtime(moment).date().isoformat() for moment in (since, until)]

    def description(self, facts):
        """The SVG's <desc>: what is plotted, by whom, over which time, how many points and marks."""
        lines = facts["lines"]
        text = ngettext(
            "%(metric)s (%(unit)s) of %(model)s for %(n)s provider",
            "%(metric)s (%(unit)s) of %(model)s for %(n)s providers", lines,
        ) % {"metric": facts["metric"].label, "unit": facts["metric"].unit, "model": facts["model"].name, "n": lines}
        names = ", ".join(str(source) for source in facts["sources"])
        if self["source"] is not None:
            by = _("measured by %(source)s") % {"source": names}
        else:
            by = _("newest data of any source (%(sources)s)") % {"sources": names or "–"}
        text = f"{text}, {by}, {self.range_words(facts['span'], facts['since'], facts['until'])}."
        count, corrected, changed = facts["count"], facts["corrected"], facts["changed"]
        text += " " + ngettext("%(n)s point plotted", "%(n)s points plotted", count) % {"n": count}
        if corrected:
            text += "; " + ngettext("%(n)s corrected", "%(n)s corrected", corrected) % {"n": corrected}
        if changed:
            text += "; " + ngettext("%(n)s change of method or source marked", "%(n)s changes of method or source marked",
                                    changed) % {"n": changed}
        return text + "."

    @staticmethod
    def empty_text(source, span, since, until):
        """What the block says without points; "" for the one case the template words itself."""
        if span.fixed:
            dates = {"since": date_in_words(span.start), "until": date_in_words(span.end)}
            if source is None:
                return _("No published measurements of this model from %(since)s to %(until)s.") % dates
            return _("No published measurements of this model by this source from %(since)s to %(until)s.") % dates
        if source is None:
            return ngettext("No published measurements of this model in the last day.",
                            "No published measurements of this model in the last %(days)s days.",
                            span.days) % {"days": span.days}
        return ""

    def figures(self, data):
        return [point["figure"] for point in self.compute(data)["table"]]

    def csv_table(self, data):
        """(headers, rows) of the block's CSV: exactly the plotted points, oldest first, each with its
        source, what changed from its line's previous point, and the range the chart covers."""
        from articles.downloads import moment_text

        chart = self.compute(data)
        headers = [_("date"), _("endpoint"), _("value"), _("snapshot id"), _("corrected"), _("full precision"),
                   _("window start"), _("window end"), _("source"), _("change"), _("range start"), _("range end"),
                   _("metric"), _("unit")]
        # A downloaded file says what its values measure, in which unit.
        metric = get_metric(self["metric"])
        measured = [str(metric.label), str(metric.unit)]
        rows = []
        for point in chart["table"]:
            snapshot = point["row"].snapshot
            window = [moment_text(m) if m else "" for m in (snapshot.window_start, snapshot.window_end)]
            rows.append([moment_text(point["moment"]), str(point["row"].endpoint), point["figure"].value,
                         point["row"].snapshot_id, _("yes") if point["corrected"] else "", point["row"].value, *window,
                         str(snapshot.source), "; ".join(change["text"] for change in point["changes"]),
                         *chart["range_cells"], *measured])
        return headers, rows


class TrendChartBlock(DataBlockMixin, blocks.StructBlock):
    offers_download = True  # a "Download CSV" link and a …/data/csv/<block id>/ file of the plotted points
    model = model_chooser()
    source = source_chooser(
        required=False,
        help_text=gettext_lazy("The benchmark whose published snapshots are plotted. Empty: the newest data of any "
                               "source, each snapshot a point; a change of source is marked on the line."),
    )
    metric = metric_choice(default="output_speed_median")
    days = blocks.IntegerBlock(
        default=DEFAULT_DAYS, min_value=1, max_value=365, label=gettext_lazy("last N days"),
        help_text=gettext_lazy("Every published snapshot measured in this many days before the page, unless both "
                               "dates below are given."),
    )
    start_date = blocks.DateBlock(
        required=False, label=gettext_lazy("from (date)"),
        help_text=gettext_lazy("With an end date: a fixed range of dates, used instead of the last N days."),
    )
    end_date = blocks.DateBlock(
        required=False, label=gettext_lazy("to (date)"), help_text=gettext_lazy("The range's last day, included."),
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

    def clean(self, value):
        value = super().clean(value)
        start, end = value.get("start_date"), value.get("end_date")
        if bool(start) != bool(end):
            missing = "end_date" if start else "start_date"
            raise StructBlockValidationError(block_errors={missing: ValidationError(
                gettext_lazy("A fixed range needs both dates; leave both empty to plot the last N days."))})
        if start and end and start >= end:
            raise StructBlockValidationError(block_errors={"end_date": ValidationError(
                gettext_lazy("The end date must be after the start date."))})
        return value

    def trend_requirement(self, value):
        """What the page loads for this block (articles/charts/data.py); nothing while it is incomplete."""
        if self.missing_fields(value):
            return None
        return value["model"], value["source"], value["metric"], value.span()

    def csv_table(self, value, data):
        return value.csv_table(data)
