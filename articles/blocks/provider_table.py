"""Provider table for one model (or one run): chosen metric and price columns, sorted by a metric."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail import blocks

from articles.figures import Figure, measured_figure, price_figure
from benchmarks.formatting import DASH, difference_number, format_difference, format_metric, format_price_pair
from benchmarks.metrics import get_metric, metric_choices
from benchmarks.querysets import rank_rows

from .base import (
    NAME_STYLE_CHOICES,
    DataBlockMixin,
    endpoint_name,
    localized,
    max_rows_block,
    metric_choice,
    model_chooser,
    once_per_render,
    source_chooser,
)
from .inline_text import caption_block, caption_text

PRICE = "price"
def column_choices():
    """Callable so that a metric added to the registry needs no migration of the article body."""
    return metric_choices() + [(PRICE, gettext_lazy("Price in / out per 1M"))]


class TableColumnBlock(blocks.StructBlock):
    field = blocks.ChoiceBlock(choices=column_choices, label=gettext_lazy("column"))
    difference_to_leader = blocks.BooleanBlock(
        required=False,
        label=gettext_lazy("add a difference-to-leader column"),
        help_text=gettext_lazy("e.g. “Δ vs fastest”: each row's gap to the best value of this metric."),
    )
    # Two difference columns would otherwise both read "Δ vs fastest" (speed and first chunk alike).
    difference_label_en = blocks.CharBlock(
        required=False, label=gettext_lazy("difference column heading"),
        help_text=gettext_lazy("Empty: “Δ vs <leader>”, e.g. “Δ vs fastest”."),
    )

    class Meta:
        icon = "table"
        label = gettext_lazy("Column")


def metric_header(metric):
    return str(metric.column_label)


def difference_header(metric):
    return _("Δ vs %(leader)s") % {"leader": metric.leader_label}


class ProviderTableValue(blocks.StructValue):
    def columns(self):
        result = []
        for column in self["columns"]:
            field = column["field"]
            if field == PRICE:
                result.append({"kind": "price", "header": _("Price in / out per 1M")})
                continue
            metric = get_metric(field)
            result.append({"kind": "metric", "metric": metric, "header": metric_header(metric)})
            if column["difference_to_leader"]:
                header = localized(column, "difference_label") or difference_header(metric)
                result.append({"kind": "difference", "metric": metric, "header": header})
        return result

    @once_per_render
    def compute(self, data):
        model, source = self["model"], self["source"]
        columns = self.columns()
        metric_keys = {c["metric"].key for c in columns if c["kind"] != "price"} | {self["sort_metric"]}
        leaders = {}
        for key in metric_keys:
            ranked = data.ranked(model, key, source)
            leaders[key] = ranked[0] if ranked else None
        endpoints = data.endpoints(model, source)
        sort_metric = get_metric(self["sort_metric"])
        sort_rows = {row.endpoint_id: row for row in data.rows(model, sort_metric.key, source)}
        ranked_ids = [row.endpoint_id for row in rank_rows(list(sort_rows.values()), sort_metric)]
        # Endpoints without a value of the sort metric go last, in source order.
        endpoints.sort(key=lambda e: ranked_ids.index(e.pk) if e.pk in ranked_ids else len(ranked_ids))
        total_rows = len(endpoints)
        if self.get("max_rows"):
            # Rows cut here print no figure: the data page and the review list only what is shown.
            endpoints = endpoints[: self["max_rows"]]
        rows = []
        for position, endpoint in enumerate(endpoints):
            name = endpoint_name(endpoint, self["name_style"])
            price = data.price(endpoint)
            cells, measured_sources = [], []
            for column in columns:
                if column["kind"] == "price":
                    text, stale = format_price_pair(price), data.price_is_stale(price)
                    cells.append(
                        {
                            "text": text,
                            "sources": [price.source] if price else [],
                            "price": price,
                            "stale": stale,
                            "figure": price_figure(endpoint, text, price, row=name, stale=stale),
                        }
                    )
                    continue
                metric = column["metric"]
                row = data.value(endpoint, metric.key, source)
                if column["kind"] == "metric":
                    if row is not None:
                        measured_sources.append(row.snapshot.source)
                    text, stale = format_metric(metric, row.value if row else None), data.is_stale(row)
                    # The sort column's figures carry the row order, so the review sees a new ranking.
                    ordered = metric.key == sort_metric.key
                    figure = measured_figure(
                        endpoint, metric, text, row, row=name, stale=stale,
                        ranking="rows" if ordered else "", position=position if ordered else None,
                    )
                    cells.append({"text": text, "measurement": row, "stale": stale, "figure": figure})
                else:
                    leader = leaders.get(metric.key)
                    difference = (row.value - leader.value) if row is not None and leader is not None else None
                    text = format_difference(metric, difference) if difference is not None else DASH
                    behind = tuple(r for r in (row, leader) if r is not None) if difference is not None else ()
                    number, unit = difference_number(metric, difference) if difference is not None else (None, "")
                    figure = Figure(
                        row=name, column=column["header"], text=text, endpoint=endpoint,
                        metric=metric.key, measurements=behind, value=number, unit=unit,
                    )
                    cells.append({"text": text, "figure": figure})
            name_sources = []
            # The price page is cited only where the table prints the price.
            shows_price = any(column["kind"] == "price" for column in columns)
            for src in measured_sources[:1] + ([price.source] if price and shows_price else []):
                if src not in name_sources:
                    name_sources.append(src)
            rows.append(
                {
                    "endpoint": endpoint,
                    "name": name,
                    "name_sources": name_sources,
                    "cells": cells,
                }
            )
        return {
            "columns": columns,
            "rows": rows,
            "model": model,
            "source": source,
            "total_rows": total_rows,
            "hidden_rows": total_rows - len(rows),
            "caption": caption_text(self["caption"], data)
            or _("Providers of %(model)s") % {"model": model.name},
        }

    def figures(self, data):
        return [cell["figure"] for row in self.compute(data)["rows"] for cell in row["cells"]]


class ProviderTableBlock(DataBlockMixin, blocks.StructBlock):
    offers_download = True  # a "Download CSV" link and a …/data/csv/<block id>/ file
    model = model_chooser()
    source = source_chooser(
        required=False, help_text=gettext_lazy("The benchmark or run to show. Empty: the newest data of any source.")
    )
    columns = blocks.ListBlock(TableColumnBlock(), label=gettext_lazy("columns"))
    sort_metric = metric_choice(label=gettext_lazy("sort by"))
    max_rows = max_rows_block()
    name_style = blocks.ChoiceBlock(choices=NAME_STYLE_CHOICES, default="short", label=gettext_lazy("provider names"))
    show_api_model = blocks.BooleanBlock(
        required=False, label=gettext_lazy("show the API model identifier (linked to its docs)")
    )
    cite_sources = blocks.BooleanBlock(
        required=False, default=True, label=gettext_lazy("footnote markers after provider names and prices")
    )
    caption = caption_block(
        label=gettext_lazy("caption"),
        help_text=gettext_lazy("Read by screen readers; empty: “Providers of <model>”."),
    )

    class Meta:
        icon = "table"
        label = gettext_lazy("Provider table")
        template = "articles/blocks/provider_table.html"
        value_class = ProviderTableValue

    result_name = "table"
