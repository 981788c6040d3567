"""Checked records of one file sent to PostgreSQL in chunks (COPY in the text format), or bulk_create on
another database; always inside the caller's transaction."""

from contextlib import ExitStack
from datetime import datetime

from django.db import connection

from .models import RequestRecord, Run

NULL = "\\N"
CHUNK_ROWS = 20_000  # rows per COPY write: a few MB of text
COPY_COLUMNS = ("endpoint_id", "run_id", "series_id", "file_id", "started_at", "region", "ttft_s", "e2e_s",
                "output_tokens", "token_count", "tokens_per_second", "outcome", "http_status", "error")


def copy_value(value):
    """One value in PostgreSQL's COPY text format."""
    if value is None:
        return "\\N"
    if isinstance(value, str):
        return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def copy_text(value):
    # Most cells hold nothing COPY must escape; isprintable() is False for a tab or a line break.
    return value if value.isprintable() and "\\" not in value else copy_value(value)


def copy_number(value):
    return "\\N" if value is None else repr(value)  # int or float: repr() is what COPY reads back


class RecordWriter:
    """Formats each record as one COPY line directly (several times faster than adapting each value)."""

    def __init__(self, target, file_id):
        is_run = isinstance(target, Run)
        self.owner = {"run_id": target.pk} if is_run else {"series_id": target.pk}
        self.file_id = file_id
        self._ids = "\t".join(copy_value(v) for v in (target.pk if is_run else None,
                                                      None if is_run else target.pk, file_id))
        self._copy, self._pending, self._open = None, [], ExitStack()

    def __enter__(self):
        if connection.vendor == "postgresql":
            self._open.enter_context(connection.wrap_database_errors)  # psycopg's copy() is not wrapped
            cursor = self._open.enter_context(connection.cursor())
            self._copy = self._open.enter_context(
                cursor.copy(f"COPY firstparty_requestrecord ({', '.join(COPY_COLUMNS)}) FROM STDIN")
            )
        return self

    def add(self, r):
        if self._copy is not None:
            # Inline, no call per value: outcome and token_count were checked against fixed forms (no tab,
            # backslash or line break); the free texts are escaped when they are not empty.
            ttft, e2e, tokens, tps, status = r["ttft_s"], r["e2e_s"], r["output_tokens"], r["tokens_per_second"], \
                r["http_status"]
            region, error = r["region"], r["error"]
            self._pending.append(
                f"{r['endpoint_id']}\t{self._ids}\t{r['started_at']}\t{copy_text(region) if region else ''}\t"
                f"{NULL if ttft is None else repr(ttft)}\t{NULL if e2e is None else repr(e2e)}\t"
                f"{NULL if tokens is None else tokens}\t{r['token_count']}\t{NULL if tps is None else repr(tps)}\t"
                f"{r['outcome']}\t{NULL if status is None else status}\t{copy_text(error) if error else ''}"
            )
        else:
            self._pending.append(RequestRecord(file_id=self.file_id, **self.owner, **r))
        if len(self._pending) == CHUNK_ROWS:
            self._flush()

    def _flush(self):
        if self._pending and self._copy is not None:
            self._copy.write("\n".join(self._pending) + "\n")
        elif self._pending:
            RequestRecord.objects.bulk_create(self._pending, batch_size=2000)
        self._pending = []

    def __exit__(self, exc_type, *exc):
        if exc_type is None:
            self._flush()
        self._pending = []
        return self._open.__exit__(exc_type, *exc)
