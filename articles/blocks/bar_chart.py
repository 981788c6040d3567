"""Bar chart: one metric per provider within one model, rendered on the server as HTML."""

from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail import blocks

from articles.figures import measured_figure
from benchmarks.formatting import format_metric
from benchmarks.metrics import get_metric

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


class BarChartValue(blocks.StructValue):
    @once_per_render
    def compute(self, data):
        metric = get_metric(self["metric"])
        model = self["model"]
        ranked = data.ranked(model, metric.key, self["source"])
        # Bars are scaled inside this model only: the longest bar is this model's best value
        # when higher is better, and the worst (largest) when lower is better.
        scale = max((row.value for row in ranked), default=Decimal(0))
        bars = []
        for position, row in enumerate(ranked):
            share = (row.value / scale * 100) if scale else Decimal(0)
            name = endpoint_name(row.endpoint, self["name_style"])
            text, stale = format_metric(metric, row.value, suffix=False), data.is_stale(row)
            bars.append(
                {
                    "name": name,
                    "text": text,
                    "percent": f"{share:.1f}",
                    "measurement": row,
                    "stale": stale,
                    "figure": measured_figure(
                        row.endpoint, metric, text, row, row=name, ranking="bars", position=position, stale=stale
                    ),
                }
            )
        caption = caption_text(self["caption_en"], data) or _("%(metric)s by provider · %(model)s (%(unit)s)") % {
            "metric": metric.label,
            "model": model.name,
            "unit": metric.unit,
        }
        return {"caption": caption, "bars": bars, "metric": metric}

    def figures(self, data):
        return [bar["figure"] for bar in self.compute(data)["bars"]]


class BarChartBlock(DataBlockMixin, blocks.StructBlock):
    offers_download = True  # a "Download CSV" link and a …/data/csv/<block id>/ file
    model = model_chooser()
    source = source_chooser(required=False)
    metric = metric_choice(default="output_speed_median")
    name_style = blocks.ChoiceBlock(choices=NAME_STYLE_CHOICES, default="short", label=gettext_lazy("provider names"))
    note = note_block(label=gettext_lazy("note under the chart"))
    # "_en" names are kept from when each block held both languages: the Spanish body (derived from
    # this one, editorial.segments) holds the translated words in the same child.
    caption_en = caption_block(
        label=gettext_lazy("caption"),
        help_text=gettext_lazy("Empty: “<metric> by provider · <model> (<unit>)”."),
    )

    class Meta:
        icon = "table"
        label = gettext_lazy("Bar chart")
        template = "articles/blocks/bar_chart.html"
        value_class = BarChartValue

    result_name = "chart"
