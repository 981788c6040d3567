"""Provider-by-provider list: one generated sentence per endpoint, in an order the editor picks."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail import blocks

from articles.figures import Figure
from articles.formatting import DASH, format_duration, format_metric
from benchmarks.metrics import get_metric
from benchmarks.querysets import rank_rows

from .base import (
    NAME_STYLE_CHOICES,
    DataBlockMixin,
    endpoint_name,
    metric_choice,
    model_chooser,
    source_chooser,
)


def _latency_scorecard(values):
    return _(
        "%(ttft_median)s median, %(e2e_p99)s end-to-end p99, time to first token p95 %(ttft_p95)s, "
        "%(speed)s tokens per second, %(task_success)s task success, %(failure_rate)s failures."
    ) % values


def _speed_summary(values):
    return _("%(speed)s tokens per second, first chunk after %(ttfc_median)s.") % values


def _latency_only(values):
    return _("%(ttft_median)s median time to first token, %(ttft_p95)s at p95, %(e2e_p99)s end-to-end p99.") % values


# pattern key -> (label, metrics it needs, sentence builder)
SENTENCE_PATTERNS = {
    "latency_scorecard": (
        gettext_lazy("Latency scorecard: median, p99, TTFT p95, tokens/s, task success, failures"),
        # A first-party scorecard: its speed is the median of our own per-request tokens/s.
        ("ttft_median", "e2e_p99", "ttft_p95", "tps_median", "task_success", "failure_rate"),
        _latency_scorecard,
    ),
    "speed_summary": (
        gettext_lazy("Speed summary: tokens/s and first chunk"),
        ("output_speed_median", "ttfc_median"),
        _speed_summary,
    ),
    "latency_only": (
        gettext_lazy("Latency only: TTFT median and p95, end-to-end p99"),
        ("ttft_median", "ttft_p95", "e2e_p99"),
        _latency_only,
    ),
}
PATTERN_CHOICES = [(key, label) for key, (label, _m, _f) in SENTENCE_PATTERNS.items()]
VALUE_NAMES = {
    "ttft_median": "ttft_median",
    "ttfc_median": "ttfc_median",
    "ttft_p95": "ttft_p95",
    "e2e_p99": "e2e_p99",
    "e2e_median": "e2e_median",
    "output_speed_median": "speed",
    "tps_median": "speed",
    "task_success": "task_success",
    "failure_rate": "failure_rate",
}


def spoken_value(metric, value):
    """Times in the unit a reader expects; other metrics with their cell suffix."""
    if value is None:
        return DASH
    if metric.kind == "time":
        return format_duration(value)
    return format_metric(metric, value)


class ProviderListValue(blocks.StructValue):
    def compute(self, data):
        model, source = self["model"], self["source"]
        _label, metric_keys, build = SENTENCE_PATTERNS[self["pattern"]]
        order_metric = get_metric(self["order_by"])
        order_rows = rank_rows(data.rows(model, order_metric.key, source), order_metric)
        ordered = [row.endpoint for row in order_rows]
        ordered += [e for e in data.endpoints(model, source) if e not in ordered]
        items = []
        for position, endpoint in enumerate(ordered):
            values, behind = {}, []
            for key in metric_keys:
                metric = get_metric(key)
                row = data.value(endpoint, key, source)
                if row is not None:
                    behind.append(row)
                values[VALUE_NAMES[key]] = spoken_value(metric, row.value if row else None)
            name = endpoint_name(endpoint, self["name_style"])
            sentence = build(values)
            figure = Figure(
                row=name, column=_("sentence"), text=str(sentence), endpoint=endpoint,
                metric=order_metric.key, measurements=tuple(behind), ranking="items", position=position,
            )
            items.append({"name": name, "sentence": sentence, "figure": figure})
        return {"items": items}

    def figures(self, data):
        return [item["figure"] for item in self.compute(data)["items"]]


class ProviderListBlock(DataBlockMixin, blocks.StructBlock):
    model = model_chooser()
    source = source_chooser(required=False)
    pattern = blocks.ChoiceBlock(choices=PATTERN_CHOICES, default="latency_scorecard", label=gettext_lazy("sentence"))
    order_by = metric_choice(default="e2e_p99", label=gettext_lazy("order by"))
    name_style = blocks.ChoiceBlock(choices=NAME_STYLE_CHOICES, default="full", label=gettext_lazy("provider names"))

    class Meta:
        icon = "list-ul"
        label = gettext_lazy("Provider-by-provider list")
        template = "articles/blocks/provider_list.html"
        value_class = ProviderListValue


class EndpointListBlock(DataBlockMixin, blocks.StructBlock):
    """The API model identifiers of a model's endpoints, linked to their docs."""

    model = model_chooser()
    source = source_chooser(required=False)
    order_by = metric_choice(required=False, label=gettext_lazy("order by"))
    name_style = blocks.ChoiceBlock(choices=NAME_STYLE_CHOICES, default="full", label=gettext_lazy("provider names"))

    class Meta:
        icon = "link"
        label = gettext_lazy("API identifiers")
        template = "articles/blocks/endpoint_list.html"

    def compute_context(self, value, data):
        endpoints = data.endpoints(value["model"], value["source"])
        if value["order_by"]:
            metric = get_metric(value["order_by"])
            ranked = [r.endpoint for r in rank_rows(data.rows(value["model"], metric.key, value["source"]), metric)]
            endpoints = ranked + [e for e in endpoints if e not in ranked]
        return {"items": [{"name": endpoint_name(e, value["name_style"]), "endpoint": e} for e in endpoints]}

    def figures(self, value, data):
        """The identifiers come from the catalogue; their order (and so the measurement behind each
        position) from the order metric."""
        order = {}
        if value["order_by"]:
            order = {r.endpoint_id: r for r in data.rows(value["model"], value["order_by"], value["source"])}
        return [
            Figure(
                row=item["name"], column=_("API identifier"), text=item["endpoint"].api_model_id or "—",
                endpoint=item["endpoint"], metric=value["order_by"] or "", ranking="items", position=position,
                measurements=(order[item["endpoint"].pk],) if item["endpoint"].pk in order else (),
            )
            for position, item in enumerate(self.data_context(value, data)["items"])
        ]
