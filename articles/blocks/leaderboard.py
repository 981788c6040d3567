"""Leaderboard: ranked model × provider rows for one metric, across models, over a stated window."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail import blocks

from articles.figures import Figure
from benchmarks.formatting import format_metric, printed_number
from benchmarks.metrics import get_metric

from .base import (
    NAME_STYLE_CHOICES,
    DataBlockMixin,
    endpoint_name,
    localized,
    max_rows_block,
    metric_choice,
    once_per_render,
    source_chooser,
)
from .inline_text import caption_block, caption_text
from .provider_cards import ModelSourceBlock


class LeaderboardValue(blocks.StructValue):
    @once_per_render
    def compute(self, data):
        metric = get_metric(self["metric"])
        hours = self["window_hours"] or 0
        entries = []
        for item in self["models"]:
            source = item["source"] or self.get("source")
            if hours:
                entries += data.window_average(item["model"], metric.key, source, hours)
            else:
                for row in data.rows(item["model"], metric.key, source):
                    entries.append((row.endpoint, row.value, (row,)))
        sign = -1 if metric.higher_is_better else 1
        entries.sort(key=lambda entry: (sign * entry[1], entry[0].model.name, entry[0].label))
        total_rows = len(entries)
        if self["limit"]:
            # Rows cut here print no figure: the data page and the review list only what is shown.
            entries = entries[: self["limit"]]
        rows = []
        for position, (endpoint, value, behind) in enumerate(entries, start=1):
            name = endpoint_name(endpoint, self["name_style"])
            text = format_metric(metric, value)
            figure = Figure(
                row=f"{endpoint.model.name} · {name}",
                column=str(metric.label),
                text=str(text),
                endpoint=endpoint,
                metric=metric.key,
                measurements=behind,
                ranking="leaderboard",
                position=position,
                window_hours=hours,
                value=printed_number(metric, value),  # the average, as printed
                unit=str(metric.unit),
            )
            rows.append(
                {
                    "rank": position,
                    "model": endpoint.model,
                    "name": name,
                    "text": text,
                    "measurement": behind[0] if not hours else None,
                    "figure": figure,
                }
            )
        if hours:
            window = _("average of the last %(hours)s hours") % {"hours": hours}
        else:
            window = _("latest published snapshot")
        caption = caption_text(self["caption_en"], data) or (
            _("%(metric)s (%(unit)s), %(window)s") % {"metric": metric.label, "unit": metric.unit, "window": window}
        )
        value_heading = localized(self, "value_heading") or str(metric.column_label)
        return {
            "rows": rows,
            "caption": caption,
            "metric": metric,
            "value_heading": value_heading,
            "total_rows": total_rows,
            "hidden_rows": total_rows - len(rows),
        }

    def figures(self, data):
        return [row["figure"] for row in self.compute(data)["rows"]]


class LeaderboardBlock(DataBlockMixin, blocks.StructBlock):
    offers_download = True  # a "Download CSV" link and a …/data/csv/<block id>/ file
    metric = metric_choice(default="output_speed_median")
    source = source_chooser(
        required=False,
        help_text=gettext_lazy("Chosen once for every model below; a model's own source, if set, wins."),
    )
    models = blocks.ListBlock(ModelSourceBlock(), label=gettext_lazy("models"))
    window_hours = blocks.IntegerBlock(
        required=False,
        min_value=0,
        label=gettext_lazy("window (hours)"),
        help_text=gettext_lazy("Average the published values of the last N hours; empty or 0: the latest snapshot."),
    )
    limit = max_rows_block()  # named "limit" before it linked to the data page; stored bodies keep the name
    name_style = blocks.ChoiceBlock(choices=NAME_STYLE_CHOICES, default="short", label=gettext_lazy("provider names"))
    # "_en" names are kept from when each block held both languages: the Spanish body (derived from
    # this one, editorial.segments) holds the translated words in the same children.
    value_heading_en = blocks.CharBlock(
        required=False, label=gettext_lazy("value column heading"),
        help_text=gettext_lazy("e.g. “Avg tokens/s (24h)”; empty: the metric's column name."),
    )
    caption_en = caption_block(
        label=gettext_lazy("caption"),
        help_text=gettext_lazy("Empty: the metric, its unit and the window."),
    )

    class Meta:
        icon = "order"
        label = gettext_lazy("Leaderboard")
        template = "articles/blocks/leaderboard.html"
        value_class = LeaderboardValue

    def data_requirements(self, value):
        for item in value["models"]:
            yield item["model"], item["source"] or value.get("source")

    def data_window_hours(self, value):
        return value["window_hours"] or 0
