"""The current published value of each (endpoint, metric, source), kept at publish time.

Pages show the newest values, not the history: reading them through this table costs the same
whether a source has one past snapshot or thousands. "As of a moment" questions
(MeasurementQuerySet.latest with `as_of`) take from this table which figures exist, then look each one
up in its source's snapshots newest first.
"""

from django.db import connection, models
from django.db.models import F, Window
from django.db.models.functions import RowNumber


class CurrentMeasurement(models.Model):
    endpoint = models.ForeignKey("benchmarks.Endpoint", on_delete=models.CASCADE, related_name="+")
    metric = models.CharField(max_length=40)
    source = models.ForeignKey("benchmarks.Source", on_delete=models.CASCADE, related_name="+")
    measurement = models.ForeignKey("benchmarks.Measurement", on_delete=models.CASCADE, related_name="+")
    snapshot = models.ForeignKey("benchmarks.Snapshot", on_delete=models.CASCADE, related_name="+")
    measured_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["endpoint", "metric", "source"], name="current_measurement_once")
        ]

    def __str__(self):
        return f"{self.endpoint_id} · {self.metric} · source {self.source_id} → measurement {self.measurement_id}"

    @classmethod
    def advance(cls, snapshot):
        """A newly published snapshot: its values become current where they are the newest.

        Reads only the snapshot's own rows and the current rows they could replace, so publishing
        costs the same whatever the source's history. One INSERT ... SELECT ... ON CONFLICT in the
        database: through Python, 20,000 rows took seconds (instances, an IN list of every endpoint).
        """
        from .models import Measurement

        table, rows = cls._meta.db_table, Measurement._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"""
                INSERT INTO {table} (endpoint_id, metric, source_id, measurement_id, snapshot_id, measured_at)
                SELECT m.endpoint_id, m.metric, %s, m.id, %s, %s FROM {rows} m WHERE m.snapshot_id = %s
                ON CONFLICT (endpoint_id, metric, source_id) DO UPDATE SET measurement_id = excluded.measurement_id,
                    snapshot_id = excluded.snapshot_id, measured_at = excluded.measured_at
                WHERE ({table}.measured_at, {table}.snapshot_id) < (excluded.measured_at, excluded.snapshot_id)
                """,
                [snapshot.source_id, snapshot.pk, connection.ops.adapt_datetimefield_value(snapshot.measured_at),
                 snapshot.pk],
            )

    @classmethod
    def rebuild(cls, source_ids):
        """Recompute the rows of these sources from their published snapshots (one insert per source).

        Called inside the transaction that publishes or supersedes a snapshot, so readers never see
        the table disagree with the snapshots' status.
        """
        from .models import Measurement

        source_ids = sorted({int(pk) for pk in source_ids})
        if not source_ids:
            return
        cls.objects.filter(source_id__in=source_ids).delete()
        newest = (
            Measurement.objects.filter(snapshot__status="published", snapshot__source_id__in=source_ids)
            .annotate(
                _newest=Window(
                    RowNumber(),
                    partition_by=[F("endpoint_id"), F("metric"), F("snapshot__source_id")],
                    order_by=[F("snapshot__measured_at").desc(), F("snapshot_id").desc()],
                )
            )
            .filter(_newest=1)
            .values_list("pk", "endpoint_id", "metric", "snapshot__source_id", "snapshot_id", "snapshot__measured_at")
        )
        cls.objects.bulk_create(
            [
                cls(measurement_id=pk, endpoint_id=endpoint, metric=metric, source_id=source, snapshot_id=snapshot,
                    measured_at=measured_at)
                for pk, endpoint, metric, source, snapshot, measured_at in newest.iterator(chunk_size=5000)
            ],
            batch_size=5000,
        )
