"""Leaderboard: ranked model × provider rows for one metric, across models, over a stated window."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail import blocks

from articles.figures import Figure
from articles.formatting import format_metric
from benchmarks.metrics import get_metric

from .base import NAME_STYLE_CHOICES, DataBlockMixin, endpoint_name, metric_choice
from .provider_cards import ModelSourceBlock


class LeaderboardValue(blocks.StructValue):
    def compute(self, data):
        metric = get_metric(self["metric"])
        hours = self["window_hours"] or 0
        entries = []
        for item in self["models"]:
            if hours:
                entries += data.window_average(item["model"], metric.key, item["source"], hours)
            else:
                for row in data.rows(item["model"], metric.key, item["source"]):
                    entries.append((row.endpoint, row.value, (row,)))
        sign = -1 if metric.higher_is_better else 1
        entries.sort(key=lambda entry: (sign * entry[1], entry[0].model.name, entry[0].label))
        if self["limit"]:
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
        caption = _("%(metric)s (%(unit)s), %(window)s") % {"metric": metric.label, "unit": metric.unit, "window": window}
        return {"rows": rows, "caption": caption, "metric": metric}

    def figures(self, data):
        return [row["figure"] for row in self.compute(data)["rows"]]


class LeaderboardBlock(DataBlockMixin, blocks.StructBlock):
    metric = metric_choice(default="output_speed_median")
    models = blocks.ListBlock(ModelSourceBlock(), label=gettext_lazy("models"))
    window_hours = blocks.IntegerBlock(
        required=False,
        min_value=0,
        label=gettext_lazy("window (hours)"),
        help_text=gettext_lazy("Average the published values of the last N hours; empty or 0: the latest snapshot."),
    )
    limit = blocks.IntegerBlock(required=False, min_value=1, label=gettext_lazy("show at most"))
    name_style = blocks.ChoiceBlock(choices=NAME_STYLE_CHOICES, default="short", label=gettext_lazy("provider names"))

    class Meta:
        icon = "order"
        label = gettext_lazy("Leaderboard")
        template = "articles/blocks/leaderboard.html"
        value_class = LeaderboardValue

    def data_requirements(self, value):
        for item in value["models"]:
            yield item["model"], item["source"]

    def data_window_hours(self, value):
        return value["window_hours"] or 0
