"""The metric registry: what each measured figure means and how it is shown.

Definitions live in code (like djangoproject.com's dashboard metrics); the data rows
(`Measurement`) only carry a key and a value.
"""

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

from django.utils.functional import lazy
from django.utils.translation import get_language, gettext

_TRANSLATED = {}


def _translated_once(message):
    """gettext, remembered per language: the registry's labels, units and definitions are read for every
    figure a page prints (hundreds a render), and a catalog never changes while the process runs."""
    key = (message, get_language())
    text = _TRANSLATED.get(key)
    if text is None:
        text = _TRANSLATED[key] = gettext(message)
    return text


_ = lazy(_translated_once, str)  # a lazy translation, as gettext_lazy

SPEED = "speed"  # tokens per second, >= 0
TIME = "time"  # seconds, >= 0
PERCENT = "percent"  # 0..100
COUNT = "count"  # whole number of requests, >= 0
# Figures from our own probe or an imported runner file (firstparty app) say so in their definition,
# so a reader never takes them for a third party's figure of the same name.


@dataclass(frozen=True)
class Metric:
    key: str
    label: str  # long label, e.g. in a chart caption
    column_label: str  # table header
    unit: str  # unit shown beside values in captions, e.g. "tokens/s"
    kind: str
    precision: int  # decimals shown
    higher_is_better: bool
    definition: str
    cell_suffix: str = ""  # appended to each table cell, e.g. " s" or " tok/s"
    trim_zeros: bool = False  # 98.60 -> 98.6, 87.00 -> 87
    significant: int | None = None  # show this many significant figures instead of `precision`
    leader_label: str = ""  # "fastest", "most accurate": for difference columns
    diff_unit: str = ""  # "ms" or "pp" for differences to the leader
    max_age: timedelta = timedelta(hours=72)
    # Plausibility: a value outside these bounds is possible in the type but not believable for this
    # figure (1e9 tokens/s; a first token after 0 s). It is not rejected: the run or import is held as a
    # draft for review, whether or not the source published the figure before.
    plausible_max: Decimal | None = None
    plausible_min: Decimal | None = None

    def __str__(self):
        return str(self.label)

    def validate(self, value):
        """Return an error message for an impossible value, or None."""
        if value is None:
            return None
        value = Decimal(value)
        if not value.is_finite():
            return _("%(metric)s must be a finite number.") % {"metric": self.label}
        if self.kind in (SPEED, TIME, COUNT) and value < 0:
            return _("%(metric)s cannot be negative (got %(value)s).") % {"metric": self.label, "value": value}
        if self.kind == PERCENT and not (0 <= value <= 100):
            return _("%(metric)s is a percentage and must be between 0 and 100 (got %(value)s).") % {
                "metric": self.label,
                "value": value,
            }
        return None

    def implausible(self, value):
        """Why an otherwise valid value needs a person to look at it before publication, or None."""
        if value is None:
            return None
        if self.plausible_max is not None and Decimal(value) > self.plausible_max:
            return _("%(metric)s of %(value)s %(unit)s is above the plausible maximum of %(max)s %(unit)s.") % {
                "metric": self.label,
                "value": format_number(value),
                "unit": self.unit,
                "max": format_number(self.plausible_max),
            }
        if self.plausible_min is not None and Decimal(value) < self.plausible_min:
            return _("%(metric)s of %(value)s %(unit)s is below the plausible minimum of %(min)s %(unit)s.") % {
                "metric": self.label,
                "value": format_number(value),
                "unit": self.unit,
                "min": format_number(self.plausible_min),
            }
        return None

    def plausible(self, value):
        """True when the value needs no look for its size alone (the cheap form of implausible())."""
        value = Decimal(value)
        return (self.plausible_max is None or value <= self.plausible_max) and (
            self.plausible_min is None or value >= self.plausible_min
        )

    def jump(self, old, new):
        """Why a change from the previously published value needs review (more than JUMP_FACTOR×), or None.

        Speeds and times only: a percentage is bounded already, and small shares such as a failure
        rate legitimately move by large factors (0.2% -> 1.5%).
        """
        if self.kind not in (SPEED, TIME):
            return None
        return jump_message(self.label, old, new, self.unit)

    def better(self, a, b):
        """True when value a ranks ahead of value b."""
        return a > b if self.higher_is_better else a < b


# --- plausibility contract ------------------------------------------------------------------------
# Values past these bounds are held for an editor instead of being published by a refresh or an
# import. They sit well above anything measured so far (the fastest endpoints stream ~3,000 tokens/s,
# the slowest reasoning answers take minutes), so a real figure is never held by accident.
MAX_TOKENS_PER_SECOND = Decimal("5000")
MAX_FIRST_TOKEN_SECONDS = Decimal("600")
MAX_ANSWER_SECONDS = Decimal("3600")
# Below these a figure is a placeholder or a unit slip, not a measurement: a first token or an answer
# within 10 ms is faster than a network round trip, and an endpoint streaming under one token a second
# is not serving (a 0 published as "ttfc_median 0.000000" was the report of issue 26).
MIN_RESPONSE_SECONDS = Decimal("0.01")
MIN_TOKENS_PER_SECOND = Decimal("1")
MAX_PRICE_PER_M = Decimal("1000")  # per 1M tokens, in the price's own currency (USD in practice)
# A figure that moves by more than this factor either way against its last published value is held.
JUMP_FACTOR = Decimal("5")


def format_number(value):
    value = Decimal(value)
    return format(value.normalize(), ",f") if value == value.to_integral_value() else format(value.normalize(), "f")


def jump_message(label, old, new, unit=""):
    """The jump check shared by metrics and prices: None when old is unknown or zero ("not measured")."""
    if old is None or new is None:
        return None
    old, new = Decimal(old), Decimal(new)
    if old <= 0 or new < 0:
        return None
    if new > old * JUMP_FACTOR or new * JUMP_FACTOR < old:
        return _(
            "%(label)s would change from %(old)s to %(new)s %(unit)s, more than %(factor)s× "
            "against the last published value."
        ) % {
            "label": label,
            "old": format_number(old),
            "new": format_number(new),
            "unit": unit,
            "factor": format_number(JUMP_FACTOR),
        }
    return None


def implausible_price(value, side, currency):
    """Why a price per 1M tokens needs review before it is used, or None."""
    if value is None or Decimal(value) <= MAX_PRICE_PER_M:
        return None
    return _("The %(side)s price of %(value)s %(currency)s per 1M tokens is above the plausible maximum of %(max)s.") % {
        "side": side,
        "value": format_number(value),
        "currency": currency,
        "max": format_number(MAX_PRICE_PER_M),
    }


_METRICS = [
    Metric(
        "output_speed_median", _("Output speed"), _("Output speed (tokens/s)"), _("tokens/s"), SPEED, 1, True,
        _("Median output tokens per second while the answer streams, after the first chunk."),
        leader_label=_("fastest"), plausible_max=MAX_TOKENS_PER_SECOND, plausible_min=MIN_TOKENS_PER_SECOND,
    ),
    Metric(
        "ttfc_median", _("First chunk"), _("First chunk (s)"), _("s"), TIME, 2, False,
        _("Median seconds until the first chunk of the answer arrives, excluding reasoning time."),
        leader_label=_("fastest"), diff_unit="ms", plausible_max=MAX_FIRST_TOKEN_SECONDS, plausible_min=MIN_RESPONSE_SECONDS,
    ),
    Metric(
        "ttft_median", _("Time to first token median"), _("TTFT median"), _("s"), TIME, 2, False,
        _("Median seconds from sending the request to receiving the first visible token, over requests that "
          "completed. From our own per-request records."),
        cell_suffix=" s", leader_label=_("fastest"), diff_unit="ms",
        plausible_max=MAX_FIRST_TOKEN_SECONDS, plausible_min=MIN_RESPONSE_SECONDS,
    ),
    Metric(
        "ttft_p95", _("Time to first token p95"), _("TTFT p95"), _("s"), TIME, 2, False,
        _("95th percentile of the time to first token: the slow start most users still see. From our own "
          "per-request records."),
        cell_suffix=" s", leader_label=_("fastest"), diff_unit="ms",
        plausible_max=MAX_FIRST_TOKEN_SECONDS, plausible_min=MIN_RESPONSE_SECONDS,
    ),
    Metric(
        "ttft_p99", _("Time to first token p99"), _("TTFT p99"), _("s"), TIME, 2, False,
        _("99th percentile of the time to first token. From our own per-request records."),
        cell_suffix=" s", leader_label=_("fastest"), diff_unit="ms",
        plausible_max=MAX_FIRST_TOKEN_SECONDS, plausible_min=MIN_RESPONSE_SECONDS,
    ),
    Metric(
        "tps_p95", _("Tokens per second p95 floor"), _("Tokens/s p95"), _("tok/s"), SPEED, 1, True,
        _("Tokens per second that 95 percent of requests met or beat (the 5th percentile): the slow throughput floor. "
          "Tokens per second = tokens after the first one divided by the time after the first token. From our "
          "own per-request records."),
        cell_suffix=" tok/s", leader_label=_("fastest"),
        plausible_max=MAX_TOKENS_PER_SECOND, plausible_min=MIN_TOKENS_PER_SECOND,
    ),
    Metric(
        "tps_median", _("Tokens per second median"), _("Tokens/s median"), _("tok/s"), SPEED, 1, True,
        _("Median tokens per second: tokens after the first one divided by the time after the first token. "
          "From our own per-request records; not Artificial Analysis' “Output speed”."),
        cell_suffix=" tok/s", leader_label=_("fastest"),
        plausible_max=MAX_TOKENS_PER_SECOND, plausible_min=MIN_TOKENS_PER_SECOND,
    ),
    Metric(
        "tps_mean", _("Tokens per second mean"), _("Tokens/s mean"), _("tok/s"), SPEED, 1, True,
        _("Mean tokens per second (tokens after the first one divided by the time after the first token) over "
          "the requests that completed. From our own per-request records."),
        cell_suffix=" tok/s", leader_label=_("fastest"),
        plausible_max=MAX_TOKENS_PER_SECOND, plausible_min=MIN_TOKENS_PER_SECOND,
    ),
    Metric(
        "e2e_median", _("End-to-end median"), _("End-to-end median"), _("s"), TIME, 2, False,
        _("Median seconds from sending the request to receiving the complete answer."),
        cell_suffix=" s", significant=3, leader_label=_("fastest"), diff_unit="ms",
        plausible_max=MAX_ANSWER_SECONDS, plausible_min=MIN_RESPONSE_SECONDS,
    ),
    Metric(
        "e2e_p95", _("End-to-end p95"), _("End-to-end p95"), _("s"), TIME, 2, False,
        _("95th percentile of the time to a complete answer. From our own per-request records."),
        cell_suffix=" s", significant=3, leader_label=_("fastest"), diff_unit="ms",
        plausible_max=MAX_ANSWER_SECONDS, plausible_min=MIN_RESPONSE_SECONDS,
    ),
    Metric(
        "e2e_p99", _("End-to-end p99"), _("End-to-end p99"), _("s"), TIME, 2, False,
        _("99th percentile of the time to a complete answer: the tail an application waits on. From our own "
          "per-request records."),
        cell_suffix=" s", significant=3, leader_label=_("fastest"), diff_unit="ms",
        plausible_max=MAX_ANSWER_SECONDS, plausible_min=MIN_RESPONSE_SECONDS,
    ),
    Metric(
        "sample_count", _("Requests measured"), _("Requests"), _("requests"), COUNT, 0, True,
        _("Number of requests behind the figures, failures included. From our own per-request records."),
        max_age=timedelta(days=3650),
    ),
    Metric(
        "accuracy_index", _("Endpoint Accuracy Index"), _("Endpoint Accuracy Index v1.0"), _("%"), PERCENT, 2, True,
        _("Accuracy of the endpoint relative to a reference endpoint of the same model, in percent."),
        cell_suffix="%", trim_zeros=True, leader_label=_("most accurate"), diff_unit="pp",
        max_age=timedelta(days=14),
    ),
    Metric(
        "task_success", _("Task success"), _("Task success"), _("%"), PERCENT, 1, True,
        _("Share of requests answered schema-valid and exactly correct; errors and timeouts count as failures "
          "(they stay in the denominator). From our own per-request records."),
        cell_suffix="%", leader_label=_("most accurate"), diff_unit="pp",
    ),
    Metric(
        "failure_rate", _("Failure rate"), _("Failure rate"), _("%"), PERCENT, 1, False,
        _("Share of requests that ended in an HTTP error, a timeout or a malformed response. From our own "
          "per-request records."),
        cell_suffix="%", leader_label=_("most reliable"), diff_unit="pp",
    ),
]

METRICS = {metric.key: metric for metric in _METRICS}
METRIC_CHOICES = [(metric.key, metric.label) for metric in _METRICS]


def metric_choices():
    """The registry as choices. Fields and blocks take this callable, so migrations store a reference to it
    rather than a copy of the list, and adding a metric to the registry needs no migration."""
    return METRIC_CHOICES
PRICE_MAX_AGE = timedelta(days=7)


def get_metric(key):
    try:
        return METRICS[key]
    except KeyError:
        raise LookupError(f"unknown metric {key!r}; known: {', '.join(METRICS)}") from None
