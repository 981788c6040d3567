"""Import of per-request records an external runner wrote (JSONL or CSV; format in docs/first-party-runs.md).

All or nothing, in bounded memory whatever the file's size: the file is read as a stream, each row is
checked (record_checks.py) and, while no row has failed, sent on to PostgreSQL with COPY in chunks,
all inside one transaction. After a bad row nothing more is written, but the rest of the file is still
checked so that up to MAX_ERRORS problems are reported at once; then the transaction is rolled back and
nothing of the file stays. An accepted file is kept verbatim in the uploads storage with its SHA-256
(ImportedFile); the same file twice into one run is refused.
"""

import codecs
import csv
import hashlib
import json
from contextlib import ExitStack, closing
from datetime import datetime

from django.core.files import File
from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from benchmarks.upload_models import uploads_storage

from .models import ImportedFile, RequestRecord, Run
from .record_checks import RowChecker

MAX_ERRORS = 50
CHUNK_ROWS = 20_000  # rows per COPY write: a few MB of text
PROGRESS_ROWS = 5000
COPY_COLUMNS = ("endpoint_id", "run_id", "file_id", "started_at", "region", "ttft_s", "e2e_s", "output_tokens",
                "token_count", "tokens_per_second", "outcome", "http_status", "error")
FORMATS = (".jsonl", ".ndjson", ".csv")


class RecordImportError(ValueError):
    def __init__(self, errors):
        self.errors = errors
        super().__init__("\n".join(errors))


def check_name(name):
    if not name.lower().endswith(FORMATS):
        raise RecordImportError([_("%(name)s: use a .jsonl or .csv file.") % {"name": name}])


class _NotUTF8(ValueError):
    pass


def _text_lines(stream):
    """(line number, text) of a binary stream, decoded line by line: a line that is not UTF-8 is that
    line's error (with the byte that cannot be read) and the lines after it are still read."""
    for number, line in enumerate(stream, start=1):
        if number == 1:
            line = line.removeprefix(codecs.BOM_UTF8)
        try:
            yield number, line.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield number, _NotUTF8(_("not UTF-8 text (byte 0x%(byte)02X cannot be read); save the file as UTF-8 "
                                     "and import it again") % {"byte": line[exc.start]})


def read_rows(stream, name):
    """(row number, dict or Exception) pairs, one at a time, from a binary stream; the format follows the
    file name (.jsonl/.ndjson or .csv). A JSONL row is a line; a CSV row is a record (row 1 the header)."""
    check_name(name)
    if name.lower().endswith(".csv"):
        yield from _csv_rows(stream)
        return
    for number, line in _text_lines(stream):
        if isinstance(line, Exception):
            yield number, line
            continue
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            yield number, exc
            continue
        yield number, row if isinstance(row, dict) else ValueError(_("not a JSON object"))


def _csv_rows(stream):
    undecodable = []  # a line that is not UTF-8 is reported, and read as empty so the records around it go on

    def lines():
        for number, line in _text_lines(stream):
            if isinstance(line, Exception):
                undecodable.append((number, line))
                line = "\n"
            yield line

    reader = csv.DictReader(lines())
    number = 1
    try:
        for number, row in enumerate(reader, start=2):  # row 1 is the header
            while undecodable:
                yield undecodable.pop(0)
            yield number, {k: v for k, v in row.items() if v not in ("", None)} if None not in row else ValueError(
                _("more cells than header columns")
            )
    except csv.Error as exc:
        yield number + 1, ValueError(_("the CSV cannot be read: %(error)s") % {"error": exc})
    yield from undecodable


def file_checksum(stream):
    """SHA-256 of the file's UTF-8 text without a byte-order mark, read in blocks."""
    digest = hashlib.sha256()
    first = stream.read(1 << 20)
    digest.update(first.removeprefix(codecs.BOM_UTF8))
    for block in iter(lambda: stream.read(1 << 20), b""):
        digest.update(block)
    return digest.hexdigest()


def _copy_value(value):
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


def _copy_text(value):
    # Most cells hold nothing COPY must escape; isprintable() is False for a tab or a line break.
    return value if value.isprintable() and "\\" not in value else _copy_value(value)


def _copy_number(value):
    return "\\N" if value is None else repr(value)  # int or float: repr() is what COPY reads back


class RecordWriter:
    """Checked records of one file, sent in chunks: COPY on PostgreSQL (formatted here as text, several times
    faster than adapting each value), bulk_create elsewhere. Inside the caller's transaction."""

    def __init__(self, run_id, file_id):
        self.run_id, self.file_id = run_id, file_id
        self._ids = f"{_copy_value(run_id)}\t{_copy_value(file_id)}"
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
            # The checker's fields have known types: formatted directly (_copy_value per value cost a fifth
            # of the import).
            self._pending.append(
                f"{r['endpoint_id']}\t{self._ids}\t{r['started_at'].isoformat()}\t{_copy_text(r['region'])}\t"
                f"{_copy_number(r['ttft_s'])}\t{_copy_number(r['e2e_s'])}\t{_copy_number(r['output_tokens'])}\t"
                f"{_copy_text(r['token_count'])}\t{_copy_number(r['tokens_per_second'])}\t{_copy_text(r['outcome'])}\t"
                f"{_copy_number(r['http_status'])}\t{_copy_text(r['error'])}"
            )
        else:
            self._pending.append(RequestRecord(run_id=self.run_id, file_id=self.file_id, **r))
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


def _check_and_write(stream, name, run_id, file_id, progress):
    """(records written, endpoint ids) of the file, or RecordImportError with every problem (up to MAX_ERRORS)."""
    checker = RowChecker()  # its query first: the COPY below holds the connection
    errors, endpoint_ids, written, read = [], set(), 0, 0
    with RecordWriter(run_id, file_id) as writer, closing(read_rows(stream, name)) as rows:
        for number, row in rows:
            read += 1
            if progress is not None and read % PROGRESS_ROWS == 0:
                progress(read, stream.tell())
            if isinstance(row, Exception):
                errors.append(_("row %(row)s: %(error)s") % {"row": number, "error": row})
            else:
                try:
                    fields = checker.check(row)
                except ValueError as exc:
                    errors.append(_("row %(row)s: %(error)s") % {"row": number, "error": exc})
                else:
                    if not errors:  # after the first error nothing more is sent; the rows are still checked
                        writer.add(fields)
                        endpoint_ids.add(fields["endpoint_id"])
                        written += 1
            if len(errors) >= MAX_ERRORS:
                errors.append(_("… stopped after %(count)s errors") % {"count": MAX_ERRORS})
                break
        if progress is not None:
            progress(read, stream.tell())
        if not errors and not written:
            errors.append(_("%(name)s holds no records.") % {"name": name})
        if errors:
            raise RecordImportError(errors)  # inside the COPY: it is abandoned, and the transaction rolled back
    return written, endpoint_ids


def _refuse_closed_or_repeated(run, checksum, name):
    if run.snapshot_id:
        raise RecordImportError([_("Run “%(run)s” is already aggregated; import into a new run.") % {"run": run}])
    if checksum is not None and run.files.filter(checksum=checksum).exists():
        raise RecordImportError([_("%(name)s was already imported into this run (same checksum).") % {"name": name}])


def import_stored_records(run, stored_name, name, progress=None):
    """Import the file `stored_name` of the uploads storage into `run`; returns the ImportedFile.

    `progress(rows read, bytes read)` is called every PROGRESS_ROWS rows. Raises RecordImportError (nothing
    written). The stored file becomes the ImportedFile's verbatim copy; the caller removes it on failure."""
    check_name(name)
    _refuse_closed_or_repeated(run, None, name)
    storage = uploads_storage()
    with storage.open(stored_name, "rb") as handle:
        checksum = file_checksum(handle)
    _refuse_closed_or_repeated(run, checksum, name)
    with storage.open(stored_name, "rb") as handle, transaction.atomic():
        run = Run.objects.select_for_update().get(pk=run.pk)
        _refuse_closed_or_repeated(run, checksum, name)  # again under the lock: another import may have won
        imported = ImportedFile.objects.create(run=run, name=name[:255], stored=stored_name, checksum=checksum)
        stream = getattr(handle, "file", handle)  # the storage's own stream: tell() is its position
        imported.rows, endpoint_ids = _check_and_write(stream, name, run.pk, imported.pk, progress)
        ImportedFile.objects.filter(pk=imported.pk).update(rows=imported.rows)
        run.endpoints.add(*endpoint_ids)
        if run.status == Run.Status.DRAFT:
            run.status = Run.Status.FINISHED
            run.save(update_fields=["status"])
    return imported


def keep_file(data, name):
    """Save a runner's file (bytes, text or a binary file object) in the uploads storage, in blocks;
    returns its stored name."""
    if isinstance(data, str):
        data = data.encode()
    content = ContentFile(data, name=name) if isinstance(data, bytes) else File(data, name=name)
    return uploads_storage().save(f"records/{timezone.now():%Y/%m}/{name}", content)


def import_records(run, data, name, progress=None):
    """Check every row of a runner's file, then keep the file and all its records, or nothing.

    `data`: the file's bytes or text, or a binary file object (read in blocks, never whole). Returns the
    ImportedFile; raises RecordImportError."""
    check_name(name)
    _refuse_closed_or_repeated(run, None, name)
    stored_name = keep_file(data, name)
    try:
        return import_stored_records(run, stored_name, name, progress)
    except BaseException:
        uploads_storage().delete(stored_name)
        raise
