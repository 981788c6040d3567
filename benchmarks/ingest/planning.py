"""What one refresh run would write, judged against what the source and the site show today: the
measurements and prices to store, the figures that change (old → new), and the reasons to hold the
snapshot for review. Reads only; refresh.py writes."""

from dataclasses import dataclass, field

from django.utils import timezone

from ..models import Measurement, Price, Snapshot
from .placement import money, price_text
from .review import measurement_concerns, price_concerns


@dataclass
class InForce:
    """What this source and the site show today for the endpoints a run touches: the baseline a
    run's changes and price jumps are judged against."""

    values: dict  # (endpoint id, metric) -> this source's latest published value
    shown_prices: dict  # endpoint id -> the price readers see (any source)
    own_prices: dict  # endpoint id -> this source's latest usable price
    same_day: dict  # endpoint id -> a price this source already recorded today


@dataclass
class Plan:
    """The rows one run will write, and what the review of changed figures will list."""

    measurements: list = field(default_factory=list)
    prices: list = field(default_factory=list)
    replaced: list = field(default_factory=list)  # today's draft prices the new ones supersede
    changes: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    concerns: list = field(default_factory=list)  # not refused, but held for review (review.py)


def in_force(source, endpoint_ids):
    today = timezone.localdate()
    own_prices = {}
    for price in (
        Price.objects.usable()
        .filter(source=source, endpoint_id__in=endpoint_ids, effective_date__lte=today)
        .order_by("endpoint_id", "-effective_date", "-pk")
    ):
        own_prices.setdefault(price.endpoint_id, price)
    return InForce(
        values={
            (m.endpoint_id, m.metric): m.value
            for m in Measurement.objects.latest(sources=[source], endpoints=endpoint_ids)
        },
        shown_prices={p.endpoint_id: p for p in Price.objects.current(endpoints=endpoint_ids)},
        own_prices=own_prices,
        # raw_payload deferred: a day's earlier snapshots can be large, and only their status is read.
        same_day={
            p.endpoint_id: p
            for p in Price.objects.filter(source=source, effective_date=today, endpoint_id__in=endpoint_ids)
            .select_related("snapshot", "endpoint__provider", "endpoint__model")
            .defer("snapshot__raw_payload")
        },
    )


def change(endpoint, label, what, old, new):
    return {"endpoint": endpoint.pk, "model": endpoint.model_id, "label": label, "what": what, "old": old, "new": new}


class Planner:
    def __init__(self, config):
        self.config = config
        self.source = config.source

    def plan(self, mapped):
        """The plan for the placed rows `mapped` (each with an endpoint)."""
        plan = Plan()
        baseline = in_force(self.source, [p.endpoint.pk for p in mapped])
        for item in mapped:
            label = f"{item.endpoint.label} · {item.endpoint.model.name}"
            self.plan_measurements(plan, item, label, baseline)
            if item.row.has_price:
                self.plan_price(plan, item, label, baseline)
        return plan

    def plan_measurements(self, plan, item, label, baseline):
        endpoint = item.endpoint
        for key, value in item.row.metrics.items():
            if value is None:
                continue  # null = not measured: no row, the page shows a dash
            plan.measurements.append(Measurement(endpoint=endpoint, metric=key, value=value))
            old = baseline.values.get((endpoint.pk, key))
            plan.concerns += measurement_concerns(f"{item.row.where} ({label})", key, value, old)
            if old is None or old != value:
                plan.changes.append(change(endpoint, label, key, money(old), money(value)))

    def plan_price(self, plan, item, label, baseline):
        row, endpoint = item.row, item.endpoint
        today = timezone.localdate()
        own = baseline.own_prices.get(endpoint.pk)
        if own is not None and (own.input_per_m, own.output_per_m, own.currency) == (
            row.input_per_m,
            row.output_per_m,
            row.currency,
        ):
            return
        # A change is judged against this source's last price, or what readers see if it has none.
        plan.concerns += price_concerns(
            f"{row.where} ({label})",
            row.input_per_m,
            row.output_per_m,
            row.currency,
            own or baseline.shown_prices.get(endpoint.pk),
            self.config.max_price_jump_factor,
        )
        earlier = baseline.same_day.get(endpoint.pk)
        if earlier is not None:
            if earlier.snapshot is not None and earlier.snapshot.status == Snapshot.Status.DRAFT:
                plan.replaced.append(earlier)
            else:
                plan.problems.append(
                    f"{row.where} ({label}): this source already recorded a price for {today} "
                    f"({price_text(earlier.input_per_m, earlier.output_per_m, earlier.currency)}); prices take effect "
                    f"per day, so today's second change needs an editor or waits for tomorrow's refresh"
                )
                return
        plan.prices.append(
            Price(
                endpoint=endpoint,
                input_per_m=row.input_per_m,
                output_per_m=row.output_per_m,
                currency=row.currency,
                effective_date=today,
                source=self.source,
            )
        )
        old_text = price_text(own.input_per_m, own.output_per_m, own.currency) if own else None
        new_text = price_text(row.input_per_m, row.output_per_m, row.currency)
        plan.changes.append(change(endpoint, label, "price", old_text, new_text))
