"""Writing many measurements at once: PostgreSQL's COPY, else bulk_create in large batches.

The rows are validated before they get here (importers/rows.py); COPY skips Django's per-object
insert preparation, which was most of an import's remaining time. Still inside the caller's
transaction, so a failure leaves nothing half-written.
"""

from django.db import connection

from ..models import Measurement

BATCH = 5000


def write_measurements(snapshot, measurements):
    """`measurements`: anything with endpoint_id, metric and value (model instances or checked rows)."""
    if connection.vendor != "postgresql":
        Measurement.objects.bulk_create(
            (Measurement(snapshot=snapshot, endpoint_id=m.endpoint_id, metric=m.metric, value=m.value)
             for m in measurements),
            batch_size=BATCH,
        )
        return
    table = Measurement._meta.db_table
    with connection.cursor() as cursor, cursor.copy(
        f'COPY "{table}" (snapshot_id, endpoint_id, metric, value) FROM STDIN'
    ) as copy:
        for measurement in measurements:
            copy.write_row((snapshot.pk, measurement.endpoint_id, measurement.metric, measurement.value))
