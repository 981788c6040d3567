"""Why new data must wait for a person before readers see it.

Impossible values (negative speeds, percentages past 100) are refused outright elsewhere. What this
module finds is possible but suspicious, so the snapshot is still recorded, as a draft, with the
reasons on it (`Snapshot.review_notes`) and never published automatically:

- a value past its metric's plausible maximum, or a price past MAX_PRICE_PER_M (benchmarks/metrics.py);
- a value more than JUMP_FACTOR× away from its last published value from the same source, or a price
  that moves by more than the source's accepted factor against the price in force;
- a metric (or the prices) that the source's previous published snapshot had and this one lacks
  entirely: usually an upstream field that was renamed, which would otherwise drop figures silently.

Refreshes and imports (command, admin upload) share these rules.
"""

from decimal import Decimal

from ..current import CurrentMeasurement
from ..metrics import get_metric, implausible_price
from ..models import Price, Snapshot

MAX_LISTED = 20  # a snapshot's notes list this many reasons, then count the rest


def measurement_concerns(label, metric_key, value, previous):
    """Reasons (possibly none) why `value` needs review; `previous` is the last published value or None."""
    metric = get_metric(metric_key)
    concerns = []
    for message in (metric.implausible(value), metric.jump(previous, value)):
        if message:
            concerns.append(f"{label}: {message}")
    return concerns


def price_concerns(label, input_per_m, output_per_m, currency, previous, factor):
    """Reasons why a price needs review; `previous` is the price in force (any object with
    input_per_m/output_per_m/currency) or None; `factor` the largest accepted change."""
    concerns = []
    for side, value in (("input", input_per_m), ("output", output_per_m)):
        message = implausible_price(value, side, currency)
        if message:
            concerns.append(f"{label}: {message}")
    if previous is None or previous.currency != currency:
        return concerns
    factor = Decimal(factor)
    for side, old, new in (
        ("input", previous.input_per_m, input_per_m),
        ("output", previous.output_per_m, output_per_m),
    ):
        # 0 or missing on either side is "not measured" upstream, never a jump.
        if not old or not new:
            continue
        if new > old * factor or new * factor < old:
            concerns.append(
                f"{label}: the {side} price would change from {_money(old)} to {_money(new)} {currency} "
                f"per 1M tokens, more than the {_money(factor)}× this source accepts"
            )
    return concerns


def previous_values(source, endpoint_ids):
    """{(endpoint id, metric): value} last published by this source, in one query.

    What Measurement.objects.latest(sources=[source]) reads, as plain values: a source's next import
    judged its 20,000 previous values through as many model instances with four joined models each.
    The source's rows are read whole: an IN list of every endpoint of a large file cost more to send
    than the few rows of other endpoints it would leave out.
    """
    endpoint_ids = set(endpoint_ids)
    return {
        (endpoint_id, metric): value
        for endpoint_id, metric, value in CurrentMeasurement.objects.filter(source=source).values_list(
            "endpoint_id", "metric", "measurement__value"
        )
        if endpoint_id in endpoint_ids
    }


def prices_in_force(endpoint_ids):
    return {p.endpoint_id: p for p in Price.objects.current(endpoints=endpoint_ids)}


def missing_fields(source, metric_keys, has_prices):
    """Reasons for figures the source's latest published snapshot carried and the new data lacks.

    Per metric over the whole snapshot, not per endpoint: one endpoint without a value is "not
    measured", a metric gone from every row is a field the upstream stopped sending.
    """
    previous = Snapshot.objects.published().filter(source=source).order_by("-measured_at", "-pk").first()
    if previous is None:
        return []
    before = set(previous.measurements.values_list("metric", flat=True).distinct())
    concerns = [
        f"{get_metric(key).label} was in snapshot #{previous.pk} and is missing from every row now "
        f"(a renamed or dropped upstream field?)"
        for key in sorted(before - set(metric_keys))
    ]
    if not has_prices and previous.prices.exists():
        concerns.append(f"snapshot #{previous.pk} had prices and the new data has none")
    return concerns


def review_text(concerns):
    shown = concerns[:MAX_LISTED]
    lines = [f"- {concern}" for concern in shown]
    if len(concerns) > len(shown):
        lines.append(f"- … and {len(concerns) - len(shown)} more")
    return "\n".join(lines)


def _money(value):
    return format(Decimal(value).normalize(), "f")
