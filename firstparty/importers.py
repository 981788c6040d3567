"""Import of per-request records from a runner's file into a run or a continuous series.

Formats: our JSONL/CSV and the runners' own exports (firstparty/runner_formats, docs/first-party-runs.md),
given or detected before anything is written.

All or nothing, in bounded memory whatever the file's size: the file is read twice as a stream. The
first pass computes its SHA-256 and keeps it gzip-compressed in the uploads storage; the second checks
each row (record_checks.py) and, while no row has failed, sends it on to PostgreSQL with COPY in chunks,
all inside one transaction. After a bad row nothing more is written, but the rest of the file is still
checked so that up to MAX_ERRORS problems are reported at once; then the transaction is rolled back, the
compressed copy removed, and nothing of the file stays. The same file twice into one run or series is
refused. Requests the runner itself set apart (cancelled on purpose, warm-up, cut off at the end) are
skipped and counted per reason (ImportedFile.skipped).
"""

import gzip
import hashlib
import io
import shutil
from collections import Counter
from contextlib import closing
from dataclasses import dataclass, field

from django.core.files import File
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from benchmarks.upload_models import uploads_storage

from .models import ImportedFile, Run, Series
from .record_checks import RowChecker
from .record_writer import RecordWriter
from .runner_formats import FormatError, ReadOptions, Skipped, check_suffix, detect, open_rows

MAX_ERRORS = 50
PROGRESS_ROWS = 5000
BLOCK = 1 << 20
# Level 1: records compress about 6× at it while costing a fraction of the import (zlib at higher levels
# compresses little better and takes several times longer).
GZIP_LEVEL = 1


class RecordImportError(ValueError):
    def __init__(self, errors):
        self.errors = errors
        super().__init__("\n".join(errors))


def check_name(name):
    try:
        check_suffix(name)
    except FormatError as exc:
        raise RecordImportError([str(exc)]) from None


@dataclass
class FileOutcome:
    written: int = 0
    endpoint_ids: set = field(default_factory=set)
    skipped: Counter = field(default_factory=Counter)
    errors: list = field(default_factory=list)


def row_error(number, error):
    return _("row %(row)s: %(error)s") % {"row": number, "error": error}


def check_rows(rows, checker, accept, progress=None, position=None):
    """Check every row of `rows` ((number, dict | Exception | Skipped)); hand each good one to `accept` while
    no row has failed. Returns a FileOutcome with up to MAX_ERRORS errors."""
    outcome, read = FileOutcome(), 0
    errors, skipped, check = outcome.errors, outcome.skipped, checker.check
    for number, row in rows:
        read += 1
        if progress is not None and read % PROGRESS_ROWS == 0:
            progress(read, position())
        if row.__class__ is dict:
            try:
                fields = check(row)
            except ValueError as exc:
                errors.append(row_error(number, exc))
            else:
                if not errors:  # after the first error nothing more is sent; the rows are still checked
                    accept(fields)
                    outcome.written += 1
        elif isinstance(row, Skipped):
            skipped[row.reason] += row.count
        else:
            errors.append(row_error(number, row))
        if len(errors) >= MAX_ERRORS:
            errors.append(_("… stopped after %(count)s errors") % {"count": MAX_ERRORS})
            break
    if progress is not None:
        progress(read, position())
    return outcome


def _check_and_write(stream, name, target, file_id, progress, format_name, options):
    checker = RowChecker()  # its query first: the COPY below holds the connection
    try:
        _format, rows = open_rows(stream, name, format_name, options)
        with RecordWriter(target, file_id) as writer, closing(iter(rows)) as rows:
            endpoint_ids = set()

            def accept(fields):
                writer.add(fields)
                endpoint_ids.add(fields["endpoint_id"])

            outcome = check_rows(rows, checker, accept, progress, stream.tell)
            outcome.endpoint_ids = endpoint_ids
            if not outcome.errors and not outcome.written:
                outcome.errors.append(_("%(name)s holds no records.") % {"name": name})
            if outcome.errors:
                raise RecordImportError(outcome.errors)  # inside the COPY: abandoned, the transaction rolled back
    except FormatError as exc:
        raise RecordImportError([f"{name}: {exc}"]) from None
    return outcome


def _refuse_closed_or_repeated(target, checksum, name):
    if isinstance(target, Run) and target.snapshot_id:
        raise RecordImportError([_("Run “%(run)s” is already aggregated; import into a new run.") % {"run": target}])
    if checksum is not None and target.files.filter(checksum=checksum).exists():
        raise RecordImportError([_("%(name)s was already imported into %(target)s (same checksum).")
                                 % {"name": name, "target": target}])


def keep_compressed(stream, name):
    """Pass one: (stored name, SHA-256 of the UTF-8 text without a byte-order mark). The file goes to the
    uploads storage gzip-compressed, block by block; the stream is rewound."""
    digest = hashlib.sha256()
    spool = _spool()
    with gzip.GzipFile(filename=name, mode="wb", fileobj=spool, compresslevel=GZIP_LEVEL, mtime=0) as packed:
        first = True
        for block in iter(lambda: stream.read(BLOCK), b""):
            packed.write(block)
            digest.update(block.removeprefix(b"\xef\xbb\xbf") if first else block)
            first = False
    stream.seek(0)
    spool.seek(0)
    stored = uploads_storage().save(f"records/{timezone.now():%Y/%m}/{name}.gz", File(spool, name=f"{name}.gz"))
    spool.close()
    return stored, digest.hexdigest()


def _spool():
    import tempfile

    return tempfile.SpooledTemporaryFile(max_size=8 * BLOCK)


def _lock(target):
    model = Run if isinstance(target, Run) else Series
    return model.objects.select_for_update().get(pk=target.pk)


def import_stream(target, stream, name, progress=None, format_name=None, options=None):
    """Import a seekable binary stream into `target` (a Run or a Series); returns the ImportedFile.

    `progress(rows read, bytes read)` is called every PROGRESS_ROWS rows. Raises RecordImportError with every
    problem; nothing is written then."""
    check_name(name)
    _refuse_closed_or_repeated(target, None, name)
    options = options or ReadOptions()
    try:
        format_name = format_name or detect(stream, name)
    except FormatError as exc:
        raise RecordImportError([str(exc)]) from None
    stored, checksum = keep_compressed(stream, name)
    try:
        _refuse_closed_or_repeated(target, checksum, name)
        with transaction.atomic():
            target = _lock(target)
            _refuse_closed_or_repeated(target, checksum, name)  # again under the lock: another import may have won
            imported = ImportedFile.objects.create(
                run=target if isinstance(target, Run) else None, series=target if isinstance(target, Series) else None,
                name=name[:255], stored=stored, checksum=checksum, format=format_name)
            outcome = _check_and_write(stream, name, target, imported.pk, progress, format_name, options)
            imported.rows, imported.skipped = outcome.written, dict(sorted(outcome.skipped.items()))
            ImportedFile.objects.filter(pk=imported.pk).update(rows=imported.rows, skipped=imported.skipped)
            if isinstance(target, Run):
                target.endpoints.add(*outcome.endpoint_ids)
                if target.status == Run.Status.DRAFT:
                    target.status = Run.Status.FINISHED
                    target.save(update_fields=["status"])
    except BaseException:
        uploads_storage().delete(stored)
        raise
    return imported


def import_stored_records(target, stored_name, name, progress=None, format_name=None, options=None):
    """Import the file `stored_name` of the uploads storage (an admin upload); the caller removes it after."""
    with uploads_storage().open(stored_name, "rb") as handle:
        return import_stream(target, getattr(handle, "file", handle), name, progress, format_name, options)


def import_records(target, data, name, progress=None, format_name=None, options=None):
    """`data`: the file's bytes or text, or a seekable binary file object (read in blocks, never whole)."""
    if isinstance(data, str):
        data = data.encode()
    stream = io.BytesIO(data) if isinstance(data, bytes) else data
    return import_stream(target, stream, name, progress, format_name, options)


def open_original(imported):
    """The imported file's bytes as they arrived (a binary stream); files kept before compression as is."""
    if imported.content:
        return io.BytesIO(imported.content.encode())
    handle = imported.stored.open("rb")
    return gzip.GzipFile(fileobj=handle, mode="rb") if imported.stored.name.endswith(".gz") else handle


def copy_original(imported, destination):
    with open_original(imported) as source:
        shutil.copyfileobj(source, destination, BLOCK)
