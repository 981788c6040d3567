"""Admin uploads: stored on arrival, imported by a Celery task that writes its progress on the Upload row.

In the request, receive() moves the file (already on disk: Django spools an upload larger than
FILE_UPLOAD_MAX_MEMORY_SIZE to a temporary file as it arrives) into the uploads storage, writes the
Upload row and queues the task; the request then answers with the progress page. In the worker,
run_upload() sets the statuses, hands the import a progress writer and records the outcome: the summary,
or every error in the uploader's language, with nothing of the file written.
"""

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.utils import timezone, translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerError

from ..models import Snapshot
from ..upload_models import Upload
from .importers import ImportIssue, ImportRejected, import_prices, import_snapshot

log = logging.getLogger(__name__)


@dataclass
class Outcome:
    summary: str
    rows: int = 0
    snapshot: object = None
    attention: bool = False  # written, but a person should look (a snapshot held for review, …)
    keep_file: bool = False  # the stored file is the verbatim copy of what was imported


def receive(request, kind, uploaded, task, options=None, target=""):
    """Store `uploaded` (a Django UploadedFile), record it and queue `task(upload id)` once committed."""
    upload = Upload(kind=kind, name=uploaded.name[:255], size=uploaded.size, target=str(target)[:300],
                    options={**(options or {}), "language": get_language() or settings.LANGUAGE_CODE},
                    uploaded_by=request.user if request.user.is_authenticated else None)
    upload.file.save(uploaded.name, uploaded, save=False)  # a temporary file is moved, not read
    upload.save()
    transaction.on_commit(lambda: queue(upload, task))
    return upload


def queue(upload, task):
    try:
        task.delay(upload.pk)
    except BrokerError:
        # The file cannot wait for a worker that nothing will ever tell about it: say so and clear up.
        log.exception("upload %s (%s) could not be queued", upload.pk, upload.name)
        fail(upload, [ImportIssue(_("The import could not be queued: the task queue is unreachable. "
                                    "Upload the file again later."))])


def fail(upload, issues):
    upload.file.delete(save=False)
    Upload.objects.filter(pk=upload.pk).update(
        status=Upload.Status.FAILED, file="", finished_at=timezone.now(), updated_at=timezone.now(),
        errors=[{"row": issue.row, "column": issue.column, "message": str(issue.message)} for issue in issues],
    )


class ProgressWriter:
    """Writes rows and bytes read, at most every UPLOAD_PROGRESS_SECONDS, on a database connection of its
    own: the import's transaction hides its own writes until it commits, and the page must see them move."""

    def __init__(self, upload_id):
        self.upload_id = upload_id
        self._connection = connections.create_connection(DEFAULT_DB_ALIAS)
        self._last = None

    def __call__(self, rows, bytes_read):
        now = time.monotonic()
        if self._last is not None and now - self._last < settings.UPLOAD_PROGRESS_SECONDS:
            return
        self._last = now
        try:
            with self._connection.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {Upload._meta.db_table} SET status = %s, rows_read = %s, bytes_read = %s, "
                    "updated_at = %s WHERE id = %s",
                    [Upload.Status.IMPORTING, rows, bytes_read, timezone.now(), self.upload_id],
                )
        except DatabaseError:  # the figures are for people watching; the import itself goes on
            log.warning("upload %s: progress not written", self.upload_id, exc_info=True)

    def close(self):
        self._connection.close()


def run_upload(upload_id, work):
    """In the worker: run `work(upload, progress)` → Outcome for a queued upload and record what happened.

    `work` raises ImportRejected for a bad file (nothing written). Any other error is logged and shown as
    an unexpected failure. Run again for an upload already finished (a redelivered message), it does nothing."""
    upload = Upload.objects.filter(pk=upload_id).first()
    if upload is None or upload.finished:
        log.info("upload %s: nothing to do (%s)", upload_id, "gone" if upload is None else upload.status)
        return None
    now = timezone.now()
    Upload.objects.filter(pk=upload.pk).update(status=Upload.Status.CHECKING, started_at=now, updated_at=now)
    progress = ProgressWriter(upload.pk)
    try:
        with translation.override(upload.options.get("language") or settings.LANGUAGE_CODE):
            try:
                outcome = work(upload, progress)
            except ImportRejected as rejected:
                log.warning("upload %s (%s) rejected: %s", upload.pk, upload.name, rejected.errors[0])
                fail(upload, rejected.errors)
                return Upload.Status.FAILED
            except Exception as exc:
                log.exception("upload %s (%s) failed", upload.pk, upload.name)
                fail(upload, [ImportIssue(_("The import failed unexpectedly and wrote nothing (%(error)s). "
                                            "The error is in the worker's log.") % {"error": type(exc).__name__})])
                return Upload.Status.FAILED
    finally:
        progress.close()
    if not outcome.keep_file:
        upload.file.delete(save=False)
    Upload.objects.filter(pk=upload.pk).update(
        status=Upload.Status.DONE, summary=outcome.summary, rows_read=outcome.rows, bytes_read=upload.size,
        snapshot=outcome.snapshot, attention=outcome.attention, file=upload.file.name or "", finished_at=timezone.now(),
        updated_at=timezone.now(),
    )
    log.info("upload %s (%s) imported: %s", upload.pk, upload.name, outcome.summary)
    return Upload.Status.DONE


def import_data_file(upload, progress):
    """A snapshot or price file (at most IMPORT_MAX_BYTES: the importers hold it whole, as the snapshot's
    raw payload keeps it)."""
    with upload.file.open("rb") as handle:
        raw = handle.read()
    progress(0, len(raw))
    options = upload.options
    importer = import_snapshot if upload.kind == Upload.Kind.SNAPSHOT else import_prices
    result = importer(raw, options.get("format") or None, filename=upload.name, publish=options.get("publish", False),
                      **options.get("meta", {}))
    if result.created and result.snapshot.status == Snapshot.Status.DRAFT and upload.uploaded_by_id:
        # A held upload is the uploader's preparation: with four eyes, someone else publishes it.
        Snapshot.objects.filter(pk=result.snapshot.pk).update(prepared_by_user_id=upload.uploaded_by_id)
    return Outcome(str(result.summary), rows=result.count, snapshot=result.snapshot, attention=result.held)
