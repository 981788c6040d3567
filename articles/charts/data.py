"""What trend charts read: every published value of a model, source and metric over the last N days.

One query for the whole page, whatever the number of trend blocks or snapshots plotted: each block
states what it plots (`trend_requirement`), the page reads the union and each block picks its rows.
"""

from datetime import timedelta
from functools import cached_property

from django.db.models import OuterRef, Q, Subquery

from benchmarks.models import Measurement


def trend_requirements(blocks):
    """[(model, source, metric key, days)] of the page's trend blocks that are complete."""
    found = []
    for child in blocks:
        ask = getattr(child.block, "trend_requirement", None)
        wanted = ask(child.value) if ask else None
        if wanted is not None:
            found.append(wanted)
    return found


class TrendDataMixin:
    """For PageData: the rows trend charts plot, in force at the page's moment (`as_of`)."""

    def trend_since(self, days):
        return self.now - timedelta(days=days)

    @cached_property
    def _trend_rows(self):
        wanted = trend_requirements(self.blocks)
        if not wanted:
            return []
        condition = Q()
        for model, source, metric, days in wanted:
            condition |= Q(
                endpoint__model=model, snapshot__source=source, metric=metric,
                snapshot__measured_at__gte=self.trend_since(days),
            )
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
            .select_related("endpoint__provider", "endpoint__model", "snapshot__source")
            .defer("snapshot__raw_payload")
            .order_by("snapshot__measured_at", "snapshot_id", "pk")
        )
        return list(rows)

    def trend_rows(self, model, source, metric, days):
        """Measurements of one metric for a model's endpoints by one source over the last `days`, oldest first."""
        since = self.trend_since(days)
        return [
            row for row in self._trend_rows
            if row.endpoint.model_id == model.pk and row.snapshot.source_id == source.pk and row.metric == metric
            and row.snapshot.measured_at >= since
        ]

    def trend_changes(self):
        """When a plotted point leaves its chart's range (the page then reads differently with no new data)."""
        return [
            row.snapshot.measured_at + timedelta(days=days)
            for model, source, metric, days in trend_requirements(self.blocks)
            for row in self.trend_rows(model, source, metric, days)
        ]
