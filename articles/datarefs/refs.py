"""What a data reference points at, and how it is stored in rich text.

A reference is stored as an inline `<embed embedtype="dataref" …/>` element: Wagtail's rich text
rewriter replaces embeds at render time, so the stored text never holds the figure itself and
the page always prints the current published value.
"""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from wagtail.blocks import StreamValue, StructValue
from wagtail.blocks.list_block import ListValue
from wagtail.rich_text import RichText
from wagtail.rich_text.rewriters import FIND_EMBED_TAG, extract_attrs

from benchmarks.metrics import METRIC_CHOICES, METRICS

EMBED_TYPE = "dataref"
PRICE_INPUT = "price_input"
PRICE_OUTPUT = "price_output"
PRICES = {PRICE_INPUT: "input_per_m", PRICE_OUTPUT: "output_per_m"}
QUANTITY_CHOICES = METRIC_CHOICES + [
    (PRICE_INPUT, _("Input price per 1M tokens")),
    (PRICE_OUTPUT, _("Output price per 1M tokens")),
]

SLOWEST = "slowest"
ABOVE = "above"
# Facts the prose states about a ranking, so they stay true when the data changes.
COUNT = "count"
LEADER = "leader"
RANK = "rank"
COMPARE_CHOICES = [
    ("", _("No comparison: the value itself")),
    (SLOWEST, _("× the slowest (how many times the last-ranked endpoint of the model)")),
    (ABOVE, _("points above another endpoint (difference to it)")),
    (COUNT, _("how many hosts are measured (rows with this metric for the model)")),
    (LEADER, _("the leader's name (the model's first place on this metric)")),
    (RANK, _("the endpoint's rank on this metric (1st, 2nd…)")),
]
FACTS = (COUNT, LEADER, RANK)
# Attribute names in the stored element, in the order they are written.
ATTRIBUTES = ("model", "endpoint", "source", "metric", "compare", "other")


class InvalidReference(ValueError):
    pass


def _id(attrs, name, required=False):
    raw = (attrs.get(name) or "").strip()
    if not raw:
        if required:
            raise InvalidReference(f"data reference without {name}")
        return None
    try:
        return int(raw)
    except ValueError:
        raise InvalidReference(f"data reference {name}={raw!r} is not an id") from None


@dataclass(frozen=True)
class DataRef:
    """An endpoint's (or a model's best) metric or price, optionally compared with another figure."""

    model_id: int
    metric: str
    endpoint_id: int | None = None  # None: the model's best value (its leader, or its cheapest price)
    source_id: int | None = None  # None: the newest value of any source
    compare: str = ""
    other_id: int | None = None  # the endpoint an ABOVE comparison subtracts

    @classmethod
    def from_attrs(cls, attrs):
        metric = (attrs.get("metric") or "").strip()
        if metric not in METRICS and metric not in PRICES:
            raise InvalidReference(f"data reference with unknown metric {metric!r}")
        compare = (attrs.get("compare") or "").strip()
        if compare not in ("", SLOWEST, ABOVE, *FACTS):
            raise InvalidReference(f"data reference with unknown comparison {compare!r}")
        ref = cls(
            model_id=_id(attrs, "model", required=True),
            metric=metric,
            endpoint_id=_id(attrs, "endpoint"),
            source_id=_id(attrs, "source"),
            compare=compare,
            other_id=_id(attrs, "other", required=compare == ABOVE),
        )
        if ref.is_price and compare:
            raise InvalidReference("a price reference cannot carry a comparison")
        if compare == RANK and ref.endpoint_id is None:
            raise InvalidReference("a rank reference needs the endpoint whose rank it prints")
        return ref

    def as_attrs(self):
        values = {
            "model": self.model_id,
            "endpoint": self.endpoint_id,
            "source": self.source_id,
            "metric": self.metric,
            "compare": self.compare,
            "other": self.other_id if self.compare == ABOVE else None,
        }
        return {name: str(values[name]) for name in ATTRIBUTES if values[name] not in (None, "")}

    @property
    def key(self):
        """A stable text key: equal references share one resolution and one review item."""
        return ":".join(f"{name}={value}" for name, value in self.as_attrs().items())

    @property
    def is_price(self):
        return self.metric in PRICES

    @property
    def metric_definition(self):
        return METRICS.get(self.metric)


def refs_in_html(html):
    """References stored in one rich text source, in order; malformed ones are skipped."""
    refs = []
    for match in FIND_EMBED_TAG.finditer(html or ""):
        attrs = extract_attrs(match.group(1))
        if attrs.get("embedtype") != EMBED_TYPE:
            continue
        try:
            refs.append(DataRef.from_attrs(attrs))
        except InvalidReference:
            continue
    return refs


def rich_texts(value):
    """Every RichText inside a block value (stream, struct or list), depth first."""
    if isinstance(value, RichText):
        yield value
    elif isinstance(value, StreamValue):
        for child in value:
            yield from rich_texts(child.value)
    elif isinstance(value, StructValue):
        for item in value.values():
            yield from rich_texts(item)
    elif isinstance(value, ListValue | list | tuple):
        for item in value:
            yield from rich_texts(item)


def refs_in_blocks(blocks):
    """References in a list of bound stream children (a page body), in order, without repeats."""
    seen = {}
    for child in blocks:
        for text in rich_texts(child.value):
            for ref in refs_in_html(text.source):
                seen.setdefault(ref.key, ref)
    return list(seen.values())
