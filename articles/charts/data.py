"""What trend charts read: every published value of a model and metric (from one source, or any) over
the last N days or a fixed range of dates.

One query for the whole page, whatever the number of trend blocks or snapshots plotted: each block
states what it plots (`trend_requirement`), the page reads the union and each block picks its rows.
"""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import cached_property

from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from benchmarks.models import Measurement


@dataclass(frozen=True)
class Span:
    """The time a chart covers: the `days` before the page's moment, or the local days `start`..`end`
    (both included) when an editor fixed them. Hashable: it is part of a block's requirement."""

    days: int = 0
    start: date | None = None
    end: date | None = None

    @property
    def fixed(self):
        return self.start is not None and self.end is not None

    def bounds(self, now):
        """(since, until): a rolling span ends at the page's moment; a fixed one at the local midnight
        after its last day, whatever the moment, so the page draws the same axis until its data changes."""
        if not self.fixed:
            return now - timedelta(days=self.days), now
        first, after = (timezone.make_aware(datetime.combine(day, time())) for day in (self.start,
                                                                                     self.end + timedelta(days=1)))
        return first, after

    def holds(self, moment, now):
        since, until = self.bounds(now)
        return since <= moment and (moment < until if self.fixed else True)


def trend_requirements(blocks):
    """[(model, source or None, metric key, Span)] of the page's trend blocks that are complete."""
    found = []
    for child in blocks:
        ask = getattr(child.block, "trend_requirement", None)
        wanted = ask(child.value) if ask else None
        if wanted is not None:
            found.append(wanted)
    return found


class TrendDataMixin:
    """For PageData: the rows trend charts plot, in force at the page's moment (`as_of`)."""

    def trend_bounds(self, span):
        return span.bounds(self.now)

    @cached_property
    def _trend_rows(self):
        wanted = trend_requirements(self.blocks)
        if not wanted:
            return []
        condition = Q()
        for model, source, metric, span in wanted:
            since, until = self.trend_bounds(span)
            one = Q(endpoint__model=model, metric=metric, snapshot__measured_at__gte=since)
            if source is not None:  # empty: the newest data of any source, each snapshot a point
                one &= Q(snapshot__source=source)
            if span.fixed:
                one &= Q(snapshot__measured_at__lt=until)
            condition |= one
        # In force at the page's moment: a snapshot a published correction replaced is left out and
        # the correction (its own snapshot, `supersedes` set) gives the value, as on every other block.
        # The value the correction replaced, in the same query: a correction copies its whole snapshot,
        # and only the points whose value it changed (or added) are marked as corrected.
        replaced = Measurement.objects.filter(
            snapshot_id=OuterRef("snapshot__supersedes_id"), endpoint_id=OuterRef("endpoint_id"), metric=OuterRef("metric")
        ).order_by().values("value")[:1]
        rows = (
            Measurement.objects.in_force(self.as_of)
            .filter(condition, snapshot__measured_at__lte=self.now)
            .annotate(replaced_value=Subquery(replaced))
            # The run a first-party snapshot aggregates, if any: its frozen request settings are part
            # of the method a change marker compares (articles/charts/changes.py). A join, not a query.
            .select_related("endpoint__provider", "endpoint__model", "snapshot__source", "snapshot__run")
            .defer("snapshot__raw_payload", "snapshot__run__problem")
            .order_by("snapshot__measured_at", "snapshot_id", "pk")
        )
        return list(rows)

    def trend_rows(self, model, source, metric, span):
        """Measurements of one metric for a model's endpoints (by one source, or any) in `span`, oldest first."""
        return [
            row for row in self._trend_rows
            if row.endpoint.model_id == model.pk and row.metric == metric
            and (source is None or row.snapshot.source_id == source.pk) and span.holds(row.snapshot.measured_at, self.now)
        ]

    def trend_changes(self):
        """When a plotted point leaves its chart's range (the page then reads differently with no new data).
        A fixed range keeps its points."""
        return [
            row.snapshot.measured_at + timedelta(days=span.days)
            for model, source, metric, span in trend_requirements(self.blocks) if not span.fixed
            for row in self.trend_rows(model, source, metric, span)
        ]
