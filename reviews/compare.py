"""Two snapshots of one source side by side: each value, its difference, and rank changes."""

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from benchmarks.formatting import DASH, format_decimal, format_metric, format_money
from benchmarks.metrics import METRICS
from benchmarks.querysets import rank_rows


class NotComparable(ValueError):
    pass


@dataclass
class Line:
    endpoint: object
    old: str
    new: str
    difference: str
    old_rank: int | None
    new_rank: int | None
    changed: bool

    @property
    def rank_changed(self):
        return self.old_rank != self.new_rank


@dataclass
class MetricGroup:
    model: object
    metric: object
    lines: list = field(default_factory=list)

    @property
    def changed(self):
        return any(line.changed or line.rank_changed for line in self.lines)


def _rows(snapshot):
    return list(snapshot.measurements.select_related("endpoint__provider", "endpoint__model").order_by("pk"))


def _ranks(rows):
    """(endpoint id, metric) -> position within its model and metric, 1 = best."""
    groups = defaultdict(list)
    for row in rows:
        if row.metric in METRICS:
            groups[(row.endpoint.model_id, row.metric)].append(row)
    ranks = {}
    for (_model, metric), members in groups.items():
        for position, row in enumerate(rank_rows(members, METRICS[metric]), start=1):
            ranks[(row.endpoint_id, metric)] = position
    return ranks


def _difference(metric, old, new):
    if old is None or new is None:
        return DASH
    delta = new.value - old.value
    text = format_decimal(delta, metric.precision)
    return f"+{text}" if delta > 0 else text


def compare_snapshots(old, new):
    if old.source_id != new.source_id:
        raise NotComparable(
            _("Snapshots #%(old)s and #%(new)s belong to different sources (%(old_source)s, %(new_source)s).")
            % {"old": old.pk, "new": new.pk, "old_source": old.source, "new_source": new.source}
        )
    old_rows, new_rows = _rows(old), _rows(new)
    old_by_key = {(r.endpoint_id, r.metric): r for r in old_rows}
    new_by_key = {(r.endpoint_id, r.metric): r for r in new_rows}
    old_ranks, new_ranks = _ranks(old_rows), _ranks(new_rows)
    endpoints = {r.endpoint_id: r.endpoint for r in old_rows + new_rows}
    groups = {}
    for key in sorted(set(old_by_key) | set(new_by_key), key=lambda k: _order(endpoints[k[0]], k[1])):
        endpoint_id, metric_key = key
        metric = METRICS.get(metric_key)
        if metric is None:
            continue
        endpoint = endpoints[endpoint_id]
        group = groups.setdefault((endpoint.model_id, metric_key), MetricGroup(endpoint.model, metric))
        was, now = old_by_key.get(key), new_by_key.get(key)
        group.lines.append(
            Line(
                endpoint=endpoint,
                old=format_metric(metric, was.value if was else None),
                new=format_metric(metric, now.value if now else None),
                difference=_difference(metric, was, now),
                old_rank=old_ranks.get(key),
                new_rank=new_ranks.get(key),
                changed=(was.value if was else None) != (now.value if now else None),
            )
        )
    for group in groups.values():
        group.lines.sort(key=lambda line: (line.new_rank or line.old_rank or 10**6, line.endpoint.label))
    return {"groups": list(groups.values()), "prices": _price_lines(old, new)}


def _order(endpoint, metric_key):
    metric_order = list(METRICS).index(metric_key) if metric_key in METRICS else len(METRICS)
    return (endpoint.model.name, metric_order, endpoint.label)


def _price_lines(old, new):
    def by_endpoint(snapshot):
        return {
            p.endpoint_id: p for p in snapshot.prices.select_related("endpoint__provider", "endpoint__model")
        }

    was_prices, now_prices = by_endpoint(old), by_endpoint(new)
    lines = []
    for endpoint_id in set(was_prices) | set(now_prices):
        was, now = was_prices.get(endpoint_id), now_prices.get(endpoint_id)
        endpoint = (now or was).endpoint
        for side, label in (("input_per_m", _("input")), ("output_per_m", _("output"))):
            old_value = getattr(was, side) if was else None
            new_value = getattr(now, side) if now else None
            lines.append(
                {
                    "endpoint": endpoint,
                    "side": label,
                    "old": format_money(old_value, was.currency) if was else DASH,
                    "new": format_money(new_value, now.currency) if now else DASH,
                    "changed": old_value != new_value,
                }
            )
    lines.sort(key=lambda line: (line["endpoint"].model.name, line["endpoint"].label))
    return lines
