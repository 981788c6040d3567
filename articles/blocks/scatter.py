"""Price vs speed: a model's endpoints as points (x: price per 1M output tokens, y: output speed by
default, or any two metrics), with the Pareto frontier drawn as a step line and its endpoints named.

An endpoint is on the frontier when no other is at least as good on both axes and better on one
(cheaper or equal and faster or equal, not both equal): the choices a reader should weigh; every
other endpoint costs more for the same speed or less. Drawn on the server as inline SVG
(articles/charts/svg.py), with the same points in a table and in the block's CSV.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail import blocks

from articles.charts import svg
from articles.figures import PRICE, Figure, measured_figure
from benchmarks.formatting import format_metric, format_money, price_decimals, quantize
from benchmarks.metrics import METRIC_CHOICES, get_metric

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

OUTPUT_PRICE = "price_output"


def x_choices():
    """The x axis: the list price per 1M output tokens, or any metric (a callable: see metric_choices)."""
    return [(OUTPUT_PRICE, gettext_lazy("Price per 1M output tokens")), *METRIC_CHOICES]


def pareto_frontier(points, lower_x_better=True, higher_y_better=True):
    """The points no other point dominates (at least as good on both axes, better on one), by x.

    `points`: [(x, y, item)]. Sorted from the best x: a point is on the frontier when its y beats every
    y seen before it; among equal x only the best y can be (the others are dominated by it). Two
    endpoints with the same x and y dominate neither the other: both are on it."""
    sign_x = 1 if lower_x_better else -1
    sign_y = -1 if higher_y_better else 1
    ordered = sorted(points, key=lambda p: (sign_x * p[0], sign_y * p[1]))
    frontier, best = [], None  # best: (y, x) of the last point put on the frontier, smaller y better
    for point in ordered:
        y = sign_y * point[1]  # smaller is better from here on
        if best is None or y < best[0] or (y == best[0] and point[0] == best[1]):
            frontier.append(point)
            best = (y, point[0])
    return frontier


def step_points(frontier, x_scale, y_scale):
    """The frontier as a step line: across at one point's y to the next point's x, then to its y."""
    path, previous = [], None
    for x, y, _item in sorted(frontier, key=lambda p: p[0]):
        if previous is not None:
            path.append((x_scale(x), y_scale(previous)))
        path.append((x_scale(x), y_scale(y)))
        previous = y
    return path


class ScatterValue(blocks.StructValue):
    def axis(self, key, data, endpoint, source):
        """(number, printed text, figure) for one endpoint on one axis, or None where it has no value."""
        name = endpoint_name(endpoint, self["name_style"])
        if key == OUTPUT_PRICE:
            price = data.price(endpoint)
            if price is None or price.output_per_m is None:
                return None
            amount = price.output_per_m
            text = format_money(amount, price.currency)
            return amount, text, Figure(
                row=name, column=str(x_choices()[0][1]), text=text, endpoint=endpoint, metric=PRICE, price=price,
                stale=data.price_is_stale(price), value=quantize(amount, price_decimals(amount)), unit=price.currency,
            )
        metric = get_metric(key)
        row = data.value(endpoint, metric.key, source)
        if row is None:
            return None
        text = format_metric(metric, row.value, suffix=False)
        return row.value, text, measured_figure(endpoint, metric, text, row, row=name, stale=data.is_stale(row))

    def axis_label(self, key):
        if key == OUTPUT_PRICE:
            return _("Price per 1M output tokens (USD)")
        metric = get_metric(key)
        return f"{metric.label} ({metric.unit})"

    @once_per_render
    def compute(self, data):
        model, source = self["model"], self["source"]
        x_key, y_key = self["x_axis"], self["y_metric"]
        y_metric = get_metric(y_key)
        lower_x_better = x_key == OUTPUT_PRICE or not get_metric(x_key).higher_is_better
        plotted, missing = [], []
        for endpoint in data.endpoints(model, source):
            x, y = self.axis(x_key, data, endpoint, source), self.axis(y_key, data, endpoint, source)
            name = endpoint_name(endpoint, self["name_style"])
            if x is None or y is None:
                missing.append(name)
                continue
            plotted.append({"name": name, "endpoint": endpoint, "x": x[0], "y": y[0], "x_text": x[1],
                            "y_text": y[1], "figures": (x[2], y[2])})
        frontier = pareto_frontier([(p["x"], p["y"], p) for p in plotted], lower_x_better, y_metric.higher_is_better)
        on_frontier = {id(item) for _x, _y, item in frontier}
        box = svg.plot_box()
        x_ticks = svg.nice_ticks(min((p["x"] for p in plotted), default=0), max((p["x"] for p in plotted), default=0),
                                 include_zero=True)
        y_ticks = svg.nice_ticks(min((p["y"] for p in plotted), default=0), max((p["y"] for p in plotted), default=0),
                                 include_zero=True)
        x_scale = svg.Scale(float(x_ticks[0]), float(x_ticks[-1]), box["left"], box["right"])
        y_scale = svg.Scale(float(y_ticks[0]), float(y_ticks[-1]), box["bottom"], box["top"])
        for point in plotted:
            cx, cy = x_scale(point["x"]), y_scale(point["y"])
            point.update(frontier=id(point) in on_frontier, at={"x": svg.num(cx), "y": svg.num(cy)},
                         label_at={"x": svg.num(cx + 7), "y": svg.num(cy - 7)},
                         tooltip=f"{point['name']}: {point['x_text']} · {point['y_text']} {y_metric.unit}")
        sources = [source]
        for point in plotted:
            for figure in point["figures"]:
                sources += [found for found in figure.sources if found not in sources]
        caption = caption_text(self["caption_en"], data) or _("%(y)s vs %(x)s · %(model)s") % {
            "y": self.axis_label(y_key), "x": self.axis_label(x_key), "model": model.name}
        return {
            "caption": caption, "points": plotted, "missing": missing, "box": box, "sources": sources,
            "x_label": self.axis_label(x_key), "y_label": self.axis_label(y_key),
            "frontier_line": svg.points_attr(step_points(frontier, x_scale, y_scale)),
            "frontier_names": [item["name"] for _x, _y, item in sorted(frontier, key=lambda p: p[0])],
            "x_ticks": [{"x": svg.num(x_scale(t)), "label": self.tick_text(x_key, t)} for t in x_ticks],
            "y_ticks": [{"y": svg.num(y_scale(t)), "label": format_metric(y_metric, t, suffix=False)} for t in y_ticks],
            "uid": f"scatter-{id(self):x}",
            "description": _(
                "%(y)s against %(x)s for %(n)s endpoints of %(model)s. On the frontier (no other endpoint is "
                "better on both): %(frontier)s."
            ) % {"y": self.axis_label(y_key), "x": self.axis_label(x_key), "n": len(plotted), "model": model.name,
                 "frontier": ", ".join(item["name"] for _x, _y, item in sorted(frontier, key=lambda p: p[0]))},
        }

    @staticmethod
    def tick_text(key, tick):
        return format_money(tick) if key == OUTPUT_PRICE else format_metric(get_metric(key), tick, suffix=False)

    def figures(self, data):
        return [figure for point in self.compute(data)["points"] for figure in point["figures"]]

    def csv_table(self, data):
        """(headers, rows) of the block's CSV: exactly the plotted points, as the table lists them."""
        chart = self.compute(data)
        headers = [_("endpoint"), chart["x_label"], chart["y_label"], _("on the frontier"), _("source")]
        rows = [
            [str(p["endpoint"]), p["figures"][0].value, p["figures"][1].value, _("yes") if p["frontier"] else "",
             "; ".join(str(s) for figure in p["figures"] for s in figure.sources)]
            for p in chart["points"]
        ]
        return headers, rows


class PriceSpeedScatterBlock(DataBlockMixin, blocks.StructBlock):
    offers_download = True  # a "Download CSV" link and a …/data/csv/<block id>/ file of the plotted points
    model = model_chooser()
    source = source_chooser(help_text=gettext_lazy("The benchmark whose latest published values are plotted."))
    x_axis = blocks.ChoiceBlock(choices=x_choices, default=OUTPUT_PRICE, label=gettext_lazy("x axis"))
    y_metric = metric_choice(default="output_speed_median", label=gettext_lazy("y axis"))
    name_style = blocks.ChoiceBlock(choices=NAME_STYLE_CHOICES, default="short", label=gettext_lazy("provider names"))
    note = note_block(label=gettext_lazy("note under the chart"))
    caption_en = caption_block(
        label=gettext_lazy("caption"), help_text=gettext_lazy("Empty: “<y> vs <x> · <model>”."),
    )

    class Meta:
        icon = "table"
        label = gettext_lazy("Price vs speed")
        template = "articles/blocks/scatter.html"
        value_class = ScatterValue

    result_name = "chart"

    def csv_table(self, value, data):
        return value.csv_table(data)
