"""The metric registry: what each measured figure means and how it is shown.

Definitions live in code (like djangoproject.com's dashboard metrics); the data rows
(`Measurement`) only carry a key and a value.
"""

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

from django.utils.translation import gettext_lazy as _

SPEED = "speed"  # tokens per second, >= 0
TIME = "time"  # seconds, >= 0
PERCENT = "percent"  # 0..100


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

    def __str__(self):
        return str(self.label)

    def validate(self, value):
        """Return an error message for an impossible value, or None."""
        if value is None:
            return None
        value = Decimal(value)
        if not value.is_finite():
            return _("%(metric)s must be a finite number.") % {"metric": self.label}
        if self.kind in (SPEED, TIME) and value < 0:
            return _("%(metric)s cannot be negative (got %(value)s).") % {"metric": self.label, "value": value}
        if self.kind == PERCENT and not (0 <= value <= 100):
            return _("%(metric)s is a percentage and must be between 0 and 100 (got %(value)s).") % {
                "metric": self.label,
                "value": value,
            }
        return None

    def better(self, a, b):
        """True when value a ranks ahead of value b."""
        return a > b if self.higher_is_better else a < b


_METRICS = [
    Metric(
        "output_speed_median", _("Output speed"), _("Output speed (tokens/s)"), _("tokens/s"), SPEED, 1, True,
        _("Median output tokens per second while the answer streams, after the first chunk."),
        leader_label=_("fastest"),
    ),
    Metric(
        "ttfc_median", _("First chunk"), _("First chunk (s)"), _("s"), TIME, 2, False,
        _("Median seconds until the first chunk of the answer arrives, excluding reasoning time."),
        leader_label=_("fastest"), diff_unit="ms",
    ),
    Metric(
        "ttft_median", _("Time to first token median"), _("TTFT median"), _("s"), TIME, 2, False,
        _("Median seconds from sending the request to receiving the first visible token."),
        cell_suffix=" s", leader_label=_("fastest"), diff_unit="ms",
    ),
    Metric(
        "ttft_p95", _("Time to first token p95"), _("TTFT p95"), _("s"), TIME, 2, False,
        _("95th percentile of the time to first token: the slow start most users still see."),
        cell_suffix=" s", leader_label=_("fastest"), diff_unit="ms",
    ),
    Metric(
        "tps_p95", _("Tokens per second p95 floor"), _("Tokens/s p95"), _("tok/s"), SPEED, 1, True,
        _("Output tokens per second that 95% of requests met or beat: the slow throughput floor."),
        cell_suffix=" tok/s", leader_label=_("fastest"),
    ),
    Metric(
        "e2e_median", _("End-to-end median"), _("End-to-end median"), _("s"), TIME, 2, False,
        _("Median seconds from sending the request to receiving the complete answer."),
        cell_suffix=" s", significant=3, leader_label=_("fastest"), diff_unit="ms",
    ),
    Metric(
        "e2e_p99", _("End-to-end p99"), _("End-to-end p99"), _("s"), TIME, 2, False,
        _("99th percentile of the time to a complete answer: the tail an application waits on."),
        cell_suffix=" s", significant=3, leader_label=_("fastest"), diff_unit="ms",
    ),
    Metric(
        "accuracy_index", _("Endpoint Accuracy Index"), _("Endpoint Accuracy Index v1.0"), _("%"), PERCENT, 2, True,
        _("Accuracy of the endpoint relative to a reference endpoint of the same model, in percent."),
        cell_suffix="%", trim_zeros=True, leader_label=_("most accurate"), diff_unit="pp",
        max_age=timedelta(days=14),
    ),
    Metric(
        "task_success", _("Task success"), _("Task success"), _("%"), PERCENT, 1, True,
        _("Share of requests answered schema-valid and exactly correct; errors and timeouts count as failures."),
        cell_suffix="%", leader_label=_("most accurate"), diff_unit="pp",
    ),
    Metric(
        "failure_rate", _("Failure rate"), _("Failure rate"), _("%"), PERCENT, 1, False,
        _("Share of requests that ended in an HTTP error, a timeout or a malformed response."),
        cell_suffix="%", leader_label=_("most reliable"), diff_unit="pp",
    ),
]

METRICS = {metric.key: metric for metric in _METRICS}
METRIC_CHOICES = [(metric.key, metric.label) for metric in _METRICS]
PRICE_MAX_AGE = timedelta(days=7)


def get_metric(key):
    try:
        return METRICS[key]
    except KeyError:
        raise LookupError(f"unknown metric {key!r}; known: {', '.join(METRICS)}") from None
