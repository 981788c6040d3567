"""A page's data as it was before a snapshot was published (and, for a correction, with the
corrected snapshot still in force), to compare with what the page shows now."""

from datetime import timedelta
from functools import cached_property

from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from articles.data import PageData, _window_hours
from benchmarks.models import Measurement, Price


class PageDataBefore(PageData):
    def __init__(self, *args, without, restored=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.without = without
        self.restored = restored

    def _in_force(self):
        published = Q(snapshot__status="published") & ~Q(snapshot_id=self.without)
        if self.restored is not None:
            published |= Q(snapshot_id=self.restored)
        return published

    @cached_property
    def measurements(self):
        models, _sources = self.requirements
        if not models:
            return []
        qs = Measurement.objects.filter(self._in_force(), endpoint__model__in=list(models))
        if self.as_of is not None:
            qs = qs.filter(snapshot__measured_at__lte=self.as_of)
        # Same partitioning as MeasurementQuerySet.latest: newest row per endpoint, metric and source.
        qs = qs.annotate(
            _newest=Window(
                RowNumber(),
                partition_by=[F("endpoint_id"), F("metric"), F("snapshot__source_id")],
                order_by=[F("snapshot__measured_at").desc(), F("snapshot_id").desc()],
            )
        ).filter(_newest=1)
        return list(
            qs.select_related("endpoint__provider", "endpoint__model", "snapshot__source")
            .defer("snapshot__raw_payload")
            .order_by("pk")
        )

    @cached_property
    def prices(self):
        models, _sources = self.requirements
        if not models:
            return {}
        on_date = self.as_of.date() if self.as_of else timezone.localdate()
        usable = Q(snapshot__isnull=True) | self._in_force()
        qs = (
            Price.objects.filter(usable, effective_date__lte=on_date, endpoint__model__in=list(models))
            .annotate(
                _newest=Window(
                    RowNumber(),
                    partition_by=[F("endpoint_id")],
                    order_by=[F("effective_date").desc(), F("pk").desc()],
                )
            )
            .filter(_newest=1)
            .select_related("source", "endpoint__provider", "endpoint__model")
        )
        return {price.endpoint_id: price for price in qs}

    @cached_property
    def window_rows(self):
        hours = _window_hours(self.blocks)
        models, _sources = self.requirements
        if not hours or not models:
            return []
        since = (self.as_of or timezone.now()) - timedelta(hours=hours)
        qs = Measurement.objects.filter(
            self._in_force(), snapshot__measured_at__gte=since, endpoint__model__in=list(models)
        )
        if self.as_of is not None:
            qs = qs.filter(snapshot__measured_at__lte=self.as_of)
        return list(
            qs.select_related("endpoint__provider", "endpoint__model", "snapshot__source").defer(
                "snapshot__raw_payload"
            )
        )
