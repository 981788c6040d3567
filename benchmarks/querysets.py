"""Query logic the pages and the review rely on. Each method runs a fixed number of queries, whatever
the data size.

One rule decides what readers see at a moment T (`as_of`; None = now): a snapshot is in force at T
when it was published by T, measured by T, and not yet replaced by a published correction. Pages
read "now"; the review of changed figures reads the moment before and the moment of a publication,
with the same querysets, so both sides follow the same rule.
"""

from django.db import models
from django.db.models import Exists, F, OuterRef, Q, Subquery, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

PUBLISHED, SUPERSEDED = "published", "superseded"


def in_force_q(as_of=None, prefix=""):
    """A Q over snapshots (through `prefix`, e.g. "snapshot__") in force at `as_of`."""
    if as_of is None:
        return Q(**{f"{prefix}status": PUBLISHED})
    return (
        Q(**{f"{prefix}status__in": [PUBLISHED, SUPERSEDED]})
        & (Q(**{f"{prefix}published_at__isnull": True}) | Q(**{f"{prefix}published_at__lte": as_of}))
        & Q(**{f"{prefix}measured_at__lte": as_of})
        # Not yet replaced by a correction published by then (a draft correction replaces nothing).
        & ~Q(**{f"{prefix}superseded_by__published_at__lte": as_of})
    )


class SnapshotQuerySet(models.QuerySet):
    def published(self):
        return self.filter(status=PUBLISHED)

    def in_force(self, as_of=None):
        return self.filter(in_force_q(as_of))


class MeasurementQuerySet(models.QuerySet):
    def published(self):
        return self.filter(snapshot__status=PUBLISHED)

    def in_force(self, as_of=None):
        return self.filter(in_force_q(as_of, "snapshot__"))

    def latest(self, as_of=None, sources=None, models=None, metrics=None, endpoints=None, per_source=True):
        """Latest value in force per endpoint and metric (per source too, unless per_source=False).

        One query. "Now" reads the current-value table (benchmarks/current.py), kept at publish
        time, so the cost follows the figures asked for, not the stored history; so does a past
        moment (_latest_from_history).
        """
        if as_of is not None:
            return self._latest_from_history(as_of, sources, models, metrics, endpoints, per_source)
        from .current import CurrentMeasurement

        current = CurrentMeasurement.objects.all()
        if sources is not None:
            current = current.filter(source__in=sources)
        if models is not None:
            current = current.filter(endpoint__model__in=models)
        if metrics is not None:
            current = current.filter(metric__in=list(metrics))
        if endpoints is not None:
            current = current.filter(endpoint__in=endpoints)
        if not per_source:
            current = current.annotate(
                _newest=Window(
                    RowNumber(), partition_by=[F("endpoint_id"), F("metric")],
                    order_by=[F("measured_at").desc(), F("snapshot_id").desc()],
                )
            ).filter(_newest=1)
        return self._with_relations(self.filter(pk__in=current.values("measurement_id")))

    def _with_relations(self, qs):
        return (
            qs.select_related("endpoint__provider", "endpoint__model", "snapshot__source")
            .defer("snapshot__raw_payload")
            .order_by("pk")
        )

    def _latest_from_history(self, as_of, sources, models, metrics, endpoints, per_source):
        """For each (endpoint, metric, source) that could have had a value, the newest in force at `as_of`.

        A window function over every in-force row read, and sorted, the whole history (2,000 past
        snapshots per source: 134,000 rows for 13 wanted). Here each wanted figure is one correlated
        lookup that walks its source's snapshots newest first (index snapshot_source_time) and probes
        each for the figure (the unique snapshot, endpoint, metric index) until one in force has it:
        usually the first, whatever the history. Which figures could exist: every figure of a
        published snapshot is in the current-value table, and a superseded snapshot's figures (a
        correction may have dropped some) come from those few snapshots themselves.
        """
        from .current import CurrentMeasurement

        def narrowed(qs, source, endpoint):
            if sources is not None:
                qs = qs.filter(**{f"{source}__in": sources})
            if models is not None:
                qs = qs.filter(**{f"{endpoint}__model__in": models})
            if metrics is not None:
                qs = qs.filter(metric__in=list(metrics))
            if endpoints is not None:
                qs = qs.filter(**{f"{endpoint}__in": endpoints})
            return qs

        from .models import Snapshot

        def newest(source_ref):
            """The measurement of the outer figure in the newest snapshot in force that has it.

            The snapshot is found on its own table, newest first, so the plan walks an index and
            stops at the first hit; joined to the measurements, the planner sorted them all."""
            has_figure = self.model._default_manager.filter(
                snapshot_id=OuterRef("pk"), endpoint_id=OuterRef(OuterRef("endpoint_id")),
                metric=OuterRef(OuterRef("metric")),
            )
            corrected = Snapshot.objects.filter(supersedes_id=OuterRef("pk"), published_at__lte=as_of)
            snapshot = (
                Snapshot.objects.filter(
                    Q(published_at__isnull=True) | Q(published_at__lte=as_of),
                    source_id=OuterRef(source_ref), status__in=[PUBLISHED, SUPERSEDED], measured_at__lte=as_of,
                )
                .filter(~Exists(corrected), Exists(has_figure))
                .order_by("-measured_at", "-pk")
                .values("pk")[:1]
            )
            return snapshot

        def measurement_of(figures, source_ref):
            return figures.annotate(_snapshot=Subquery(newest(source_ref))).annotate(
                _newest_pk=Subquery(
                    self.model._default_manager.filter(
                        snapshot_id=OuterRef("_snapshot"), endpoint_id=OuterRef("endpoint_id"),
                        metric=OuterRef("metric"),
                    ).order_by().values("pk")[:1]
                )
            ).values("_newest_pk")

        published_figures = narrowed(CurrentMeasurement.objects.all(), "source", "endpoint")
        superseded_figures = narrowed(
            self.model._default_manager.filter(snapshot__status=SUPERSEDED), "snapshot__source", "endpoint"
        ).order_by()
        qs = self.filter(
            pk__in=measurement_of(published_figures, "source_id").union(
                measurement_of(superseded_figures, "snapshot__source_id")
            )
        )
        if not per_source:
            # Across sources: the newest of each source's newest, a window over those few rows only.
            qs = self.filter(pk__in=qs.values("pk")).annotate(
                _newest=Window(
                    RowNumber(), partition_by=[F("endpoint_id"), F("metric")],
                    order_by=[F("snapshot__measured_at").desc(), F("snapshot_id").desc()],
                )
            ).filter(_newest=1)
        return self._with_relations(qs)

    def in_window(self, since, as_of=None, models=None):
        """Every value in force at `as_of` measured since `since`: what a windowed average reads."""
        qs = self.in_force(as_of).filter(snapshot__measured_at__gte=since)
        if models is not None:
            qs = qs.filter(endpoint__model__in=models)
        return qs.select_related("endpoint__provider", "endpoint__model", "snapshot__source").defer(
            "snapshot__raw_payload"
        )


def rank_rows(rows, definition):
    """Best first; ties keep the order the source listed them in (row id). The one ranking rule."""
    sign = -1 if definition.higher_is_better else 1
    return sorted(rows, key=lambda row: (sign * row.value, row.pk))


class PriceQuerySet(models.QuerySet):
    def usable(self, as_of=None):
        """Prices typed by an editor (no snapshot), or recorded by a snapshot in force at `as_of`."""
        typed = Q(snapshot__isnull=True)
        if as_of is not None:
            typed &= Q(created_at__lte=as_of)
        return self.filter(typed | in_force_q(as_of, "snapshot__"))

    def current(self, on_date=None, endpoints=None, models=None, as_of=None):
        """Each endpoint's price in force on a date (latest effective date not after it). One query.

        Each endpoint's newest usable price is looked up on its own, newest first, along the index on
        (endpoint, effective date): the cost follows the endpoints asked for, not the price history (a
        price list refreshed every 15 minutes records every price again each time; sorting all of them
        per page grew with every refresh)."""
        from .models import Endpoint

        on_date = on_date or (as_of.date() if as_of is not None else timezone.localdate())
        wanted = Endpoint.objects.all()
        if endpoints is not None:
            wanted = wanted.filter(pk__in=[getattr(endpoint, "pk", endpoint) for endpoint in endpoints])
        if models is not None:
            wanted = wanted.filter(model__in=models)
        newest = (
            type(self)(self.model).usable(as_of)
            .filter(endpoint_id=OuterRef("pk"), effective_date__lte=on_date)
            .order_by("-effective_date", "-pk")
            .values("pk")[:1]
        )
        qs = self.filter(pk__in=wanted.annotate(_price=Subquery(newest)).values("_price"))
        return qs.select_related("source", "snapshot", "endpoint__provider", "endpoint__model").defer(
            "snapshot__raw_payload"
        )
