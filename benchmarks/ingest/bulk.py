"""Writing many measurements at once: PostgreSQL's COPY, else bulk_create in large batches.

The rows are validated before they get here (importers/rows.py); COPY skips Django's per-object
insert preparation, which was most of an import's remaining time. Still inside the caller's
transaction, so a failure leaves nothing half-written.
"""

from decimal import Decimal

from django.db import connection

from ..models import Measurement

BATCH = 5000
COPY_CHUNK = 5000  # rows per write: the server parses one chunk while the next is formatted

# COPY's text format: a backslash, a tab (the delimiter) or a line break inside a value is escaped.
_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def copy_text(value):
    """`value` as COPY's text format reads it back (None is NULL)."""
    if value is None:
        return "\\N"
    if type(value) in (Decimal, int):  # digits, sign, point, exponent: nothing to escape
        return str(value)
    return str(value).translate(_ESCAPES)


def write_measurements(snapshot, measurements):
    """`measurements`: anything with endpoint_id, metric and value (model instances or checked rows)."""
    if connection.vendor != "postgresql":
        Measurement.objects.bulk_create(
            (Measurement(snapshot=snapshot, endpoint_id=m.endpoint_id, metric=m.metric, value=m.value)
             for m in measurements),
            batch_size=BATCH,
        )
        return
    # psycopg's write_row() adapts each value in Python, which cost more than the COPY itself;
    # the rows are formatted here as text instead, a few known metric keys and numbers.
    table = Measurement._meta.db_table
    prefix = f"{copy_text(snapshot.pk)}\t"
    metrics = {}
    with connection.wrap_database_errors, connection.cursor() as cursor, cursor.copy(
        f'COPY "{table}" (snapshot_id, endpoint_id, metric, value) FROM STDIN'
    ) as copy:
        lines = []
        for m in measurements:
            metric = metrics.get(m.metric)
            if metric is None:
                metric = metrics[m.metric] = copy_text(m.metric)
            lines.append(f"{prefix}{copy_text(m.endpoint_id)}\t{metric}\t{copy_text(m.value)}\n")
            if len(lines) == COPY_CHUNK:
                copy.write("".join(lines))
                lines = []
        if lines:
            copy.write("".join(lines))
