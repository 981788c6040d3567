"""Provider-by-provider list: one sentence per endpoint, composed by the editor from parts.

A part is a figure (a metric or the price) with words before and after it in each language, a
unit style and optional fixed decimals. Ready-made sentences (sentence_presets) are the same
parts as data. The list is ordered by any metric, best first, ascending or descending.
"""

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from wagtail import blocks

from articles.figures import Figure
from benchmarks.formatting import DASH, format_decimal, format_duration, format_metric, format_price_pair
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
from .provider_table import PRICE, column_choices
from .sentence_presets import SENTENCE_PRESETS

CUSTOM = "custom"
PATTERN_CHOICES = [(CUSTOM, gettext_lazy("Composed from the parts below"))] + [
    (key, preset["label"]) for key, preset in SENTENCE_PRESETS.items()
]
UNIT_CHOICES = [
    ("auto", gettext_lazy("Times in ms below a second, seconds above; others with their table unit")),
    ("number", gettext_lazy("Number only")),
    ("s", gettext_lazy("Seconds (s)")),
    ("ms", gettext_lazy("Milliseconds (ms)")),
]
ORDER_CHOICES = [
    ("best", gettext_lazy("Best first")),
    ("asc", gettext_lazy("Ascending (smallest first)")),
    ("desc", gettext_lazy("Descending (largest first)")),
]
LANGUAGES = ("en", "es")


class SentencePartBlock(blocks.StructBlock):
    field = blocks.ChoiceBlock(choices=column_choices, label=gettext_lazy("figure"))
    # The Spanish body (derived from the English one, editorial.segments) holds the translated words
    # in these same "_en" children; ready-made sentences (sentence_presets) still carry both languages.
    before_en = blocks.CharBlock(required=False, label=gettext_lazy("words before"))
    after_en = blocks.CharBlock(
        required=False, label=gettext_lazy("words after"), help_text=gettext_lazy("e.g. “tokens per second median”")
    )
    unit = blocks.ChoiceBlock(choices=UNIT_CHOICES, default="auto", label=gettext_lazy("unit"))
    decimals = blocks.IntegerBlock(
        required=False, min_value=0, max_value=4, label=gettext_lazy("decimals"),
        help_text=gettext_lazy("Fixed number of decimals; empty: as the tables print it."),
    )

    class Meta:
        icon = "edit"
        label = gettext_lazy("Part")


def part_words(part, where, lang):
    """The part's words (see base.localized: the Spanish body's `_en` children hold the translation)."""
    words = part.get(f"{where}_{lang}") or part.get(f"{where}_en") or ""
    return words.strip()


def spoken_value(metric, value, unit="auto", decimals=None):
    """A figure as a sentence says it: times in the unit a reader expects, others as the table prints them."""
    if value is None:
        return DASH
    if unit == "number":
        return format_metric(metric, value, suffix=False) if decimals is None else format_decimal(value, decimals)
    if unit == "s":
        return f"{format_decimal(value, 2 if decimals is None else decimals)} s"
    if unit == "ms":
        return f"{format_decimal(value * 1000, 0 if decimals is None else decimals)} ms"
    if metric.kind == "time":
        return format_duration(value, decimals=decimals, significant=metric.significant)
    if decimals is not None:
        return format_decimal(value, decimals) + metric.cell_suffix
    return format_metric(metric, value)


def order_endpoints(data, model, source, metric, direction):
    rows = data.rows(model, metric.key, source)
    if direction == "best":
        rows = rank_rows(rows, metric)
    else:
        rows = sorted(rows, key=lambda row: (row.value, row.endpoint.label), reverse=direction == "desc")
    ordered = [row.endpoint for row in rows]
    # Endpoints without a value of the order metric go last, in source order.
    return ordered + [e for e in data.endpoints(model, source) if e not in ordered]


class ProviderListValue(blocks.StructValue):
    def sentence_parts(self):
        if self["pattern"] in SENTENCE_PRESETS:
            return SENTENCE_PRESETS[self["pattern"]]["parts"]
        return [dict(part) for part in self["parts"]]

    def sentence(self, data, endpoint, parts, lang):
        """(sentence, measurements behind it, prices behind it)."""
        texts, behind, prices = [], [], []
        for part in parts:
            if part["field"] == PRICE:
                price = data.price(endpoint)
                if price is not None:
                    prices.append(price)
                figure = format_price_pair(price)
            else:
                metric = get_metric(part["field"])
                row = data.value(endpoint, metric.key, self["source"])
                if row is not None:
                    behind.append(row)
                figure = spoken_value(metric, row.value if row else None, part.get("unit") or "auto", part.get("decimals"))
            words = [part_words(part, "before", lang), figure, part_words(part, "after", lang)]
            texts.append(" ".join(word for word in words if word))
        return (", ".join(texts) + "." if texts else ""), behind, prices

    @once_per_render
    def compute(self, data):
        lang = (get_language() or "en")[:2]
        lang = lang if lang in LANGUAGES else "en"
        parts = self.sentence_parts()
        order_metric = get_metric(self["order_by"])
        ordered = order_endpoints(data, self["model"], self["source"], order_metric, self.get("order") or "best")
        items = []
        for position, endpoint in enumerate(ordered):
            name = endpoint_name(endpoint, self["name_style"])
            sentence, behind, prices = self.sentence(data, endpoint, parts, lang)
            figure = Figure(
                row=name, column=_("sentence"), text=str(sentence), endpoint=endpoint,
                metric=order_metric.key, measurements=tuple(behind), ranking="items", position=position,
                price=prices[0] if prices else None,
            )
            items.append({"name": name, "endpoint": endpoint, "sentence": sentence, "figure": figure})
        return {"items": items}

    def figures(self, data):
        return [item["figure"] for item in self.compute(data)["items"]]


class ProviderListBlock(DataBlockMixin, blocks.StructBlock):
    model = model_chooser()
    source = source_chooser(required=False)
    pattern = blocks.ChoiceBlock(
        choices=PATTERN_CHOICES, default=CUSTOM, label=gettext_lazy("sentence"),
        help_text=gettext_lazy("A ready-made sentence, or your own from the parts below."),
    )
    parts = blocks.ListBlock(SentencePartBlock(), default=[], label=gettext_lazy("parts of the sentence"))
    order_by = metric_choice(default="e2e_p99", label=gettext_lazy("order by"))
    order = blocks.ChoiceBlock(choices=ORDER_CHOICES, default="best", label=gettext_lazy("order"))
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
        if self.missing_fields(value):
            return []
        order = {}
        if value["order_by"]:
            order = {r.endpoint_id: r for r in data.rows(value["model"], value["order_by"], value["source"])}
        return [
            Figure(
                row=item["name"], column=_("API identifier"), text=item["endpoint"].api_model_id or "—",
                endpoint=item["endpoint"], metric=value["order_by"] or "", ranking="items", position=position,
                measurements=(order[item["endpoint"].pk],) if item["endpoint"].pk in order else (),
            )
            for position, item in enumerate(self.compute_context(value, data)["items"])
        ]
