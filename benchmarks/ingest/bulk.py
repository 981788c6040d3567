"""Writing many measurements at once: PostgreSQL's COPY, else bulk_create in large batches.

The rows are validated before they get here (importers/rows.py); COPY skips Django's per-object
insert preparation, which was most of an import's remaining time. Still inside the caller's
transaction, so a failure leaves nothing half-written.
"""

from contextlib import ExitStack
from decimal import Decimal

from django.db import connection

from ..models import Measurement

BATCH = 5000
COPY_CHUNK = 500  # rows per write: the server stores one chunk while the next is checked and formatted

# COPY's text format: a backslash, a tab (the delimiter) or a line break inside a value is escaped.
_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def copy_text(value):
    """`value` as COPY's text format reads it back (None is NULL)."""
    if value is None:
        return "\\N"
    if type(value) in (Decimal, int):  # digits, sign, point, exponent: nothing to escape
        return str(value)
    return str(value).translate(_ESCAPES)


class MeasurementWriter:
    """Measurements of one saved snapshot, written in as many calls to write() as the caller likes.

    An import sends each chunk of checked rows as soon as it has it, so PostgreSQL stores them while
    the rest of the file is checked; the caller's transaction still makes it all or nothing.
    `measurements`: anything with endpoint_id, metric and value (model instances or checked rows).
    """

    def __init__(self, snapshot):
        self.snapshot = snapshot
        self._copy = None
        self._open = ExitStack()

    def __enter__(self):
        if connection.vendor == "postgresql":
            self._open.enter_context(connection.wrap_database_errors)  # psycopg's copy() is not wrapped
            cursor = self._open.enter_context(connection.cursor())
            self._copy = self._open.enter_context(
                cursor.copy(f'COPY "{Measurement._meta.db_table}" (snapshot_id, endpoint_id, metric, value) FROM STDIN')
            )
            self._prefix = f"{copy_text(self.snapshot.pk)}\t"
            self._metrics = {}
        return self

    def write(self, measurements):
        if self._copy is None:
            Measurement.objects.bulk_create(
                (Measurement(snapshot=self.snapshot, endpoint_id=m.endpoint_id, metric=m.metric, value=m.value)
                 for m in measurements),
                batch_size=BATCH,
            )
            return
        # psycopg's write_row() adapts each value in Python, which cost more than the COPY itself;
        # the rows are formatted here as text instead, a few known metric keys and numbers.
        prefix, metrics, lines = self._prefix, self._metrics, []
        for m in measurements:
            metric = metrics.get(m.metric)
            if metric is None:
                metric = metrics[m.metric] = copy_text(m.metric)
            lines.append(f"{prefix}{copy_text(m.endpoint_id)}\t{metric}\t{copy_text(m.value)}\n")
            if len(lines) == COPY_CHUNK:
                self._copy.write("".join(lines))
                lines = []
        if lines:
            self._copy.write("".join(lines))

    def __exit__(self, *exc):
        return self._open.__exit__(*exc)


def write_measurements(snapshot, measurements):
    with MeasurementWriter(snapshot) as writer:
        writer.write(measurements)
