"""Query logic the blocks rely on. Each method runs a fixed number of queries, whatever the data size."""

from django.db import models
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone


class SnapshotQuerySet(models.QuerySet):
    def published(self):
        return self.filter(status="published")

    def for_source(self, source):
        return self.filter(source=source)

    def current(self, source, as_of=None):
        """The newest published snapshot of a source (as of a moment), or None."""
        qs = self.published().for_source(source)
        if as_of is not None:
            qs = qs.filter(measured_at__lte=as_of)
        return qs.order_by("-measured_at", "-pk").first()


class MeasurementQuerySet(models.QuerySet):
    def published(self):
        return self.filter(snapshot__status="published")

    def latest(self, as_of=None, sources=None, models=None, metrics=None, endpoints=None, per_source=True):
        """Latest published value per endpoint and metric (per source too, unless per_source=False).

        One query: a window function keeps the newest row of each partition, so the result
        size grows with the data but the number of queries does not.
        """
        qs = self.published()
        if as_of is not None:
            qs = qs.filter(snapshot__measured_at__lte=as_of)
        if sources is not None:
            qs = qs.filter(snapshot__source__in=sources)
        if models is not None:
            qs = qs.filter(endpoint__model__in=models)
        if metrics is not None:
            qs = qs.filter(metric__in=list(metrics))
        if endpoints is not None:
            qs = qs.filter(endpoint__in=endpoints)
        partition = [F("endpoint_id"), F("metric")] + ([F("snapshot__source_id")] if per_source else [])
        qs = qs.annotate(
            _newest=Window(
                RowNumber(), partition_by=partition, order_by=[F("snapshot__measured_at").desc(), F("snapshot_id").desc()]
            )
        ).filter(_newest=1)
        return (
            qs.select_related("endpoint__provider", "endpoint__model", "snapshot__source")
            .defer("snapshot__raw_payload")
            .order_by("pk")
        )

    def ranked(self, model, metric, source=None, as_of=None):
        """Endpoints of a model ranked best-first by a metric: a list of Measurement rows."""
        from .metrics import get_metric

        definition = get_metric(metric)
        rows = list(
            self.latest(as_of=as_of, sources=[source] if source else None, models=[model], metrics=[metric],
                        per_source=source is not None)
        )
        return rank_rows(rows, definition)

    def leader(self, model, metric, source=None, as_of=None):
        ranked = self.ranked(model, metric, source=source, as_of=as_of)
        return ranked[0] if ranked else None

    def differences_to_leader(self, model, metric, source=None, as_of=None):
        """[(measurement, value - leader value)] best-first."""
        ranked = self.ranked(model, metric, source=source, as_of=as_of)
        if not ranked:
            return []
        return [(row, row.value - ranked[0].value) for row in ranked]

    def provider_best(self, provider, models, metric, sources=None, as_of=None):
        """A provider's best value of a metric over a set of models (any tier), or None."""
        from .metrics import get_metric

        definition = get_metric(metric)
        rows = list(
            self.latest(as_of=as_of, sources=sources, models=models, metrics=[metric]).filter(endpoint__provider=provider)
        )
        ranked = rank_rows(rows, definition)
        return ranked[0] if ranked else None


def rank_rows(rows, definition):
    """Best first; ties keep the order the source listed them in (row id)."""
    sign = -1 if definition.higher_is_better else 1
    return sorted(rows, key=lambda row: (sign * row.value, row.pk))


class PriceQuerySet(models.QuerySet):
    def usable(self):
        return self.filter(Q(snapshot__isnull=True) | Q(snapshot__status="published"))

    def current(self, on_date=None, endpoints=None, models=None):
        """Each endpoint's price in force on a date (latest effective date not after it). One query."""
        on_date = on_date or timezone.localdate()
        qs = self.usable().filter(effective_date__lte=on_date)
        if endpoints is not None:
            qs = qs.filter(endpoint__in=endpoints)
        if models is not None:
            qs = qs.filter(endpoint__model__in=models)
        qs = qs.annotate(
            _newest=Window(
                RowNumber(), partition_by=[F("endpoint_id")], order_by=[F("effective_date").desc(), F("pk").desc()]
            )
        ).filter(_newest=1)
        return qs.select_related("source", "snapshot", "endpoint__provider", "endpoint__model").defer(
            "snapshot__raw_payload"
        )
