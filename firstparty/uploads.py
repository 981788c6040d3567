"""The worker's part of a records file uploaded on a run (the upload itself: benchmarks/ingest/uploads.py)."""

import logging
from datetime import datetime

from django.utils.translation import gettext as _

from benchmarks.ingest.importers import ImportIssue, ImportRejected
from benchmarks.ingest.uploads import Outcome

from .importers import RecordImportError, import_stored_records
from .models import Run
from .runner_formats import ReadOptions

log = logging.getLogger(__name__)


def import_records_file(upload, progress):
    """Import the stored file into its run (streamed, all or nothing), then aggregate the run if asked."""
    run = Run.objects.filter(pk=upload.options.get("run")).select_related("source").first()
    if run is None:
        raise ImportRejected([ImportIssue(_("The run this file was uploaded for no longer exists."))])
    options = upload.options
    started_at = options.get("started_at")
    read_options = ReadOptions(
        endpoint=tuple(options["endpoint"]) if options.get("endpoint") else None,
        started_at=datetime.fromisoformat(started_at) if started_at else None,
        token_count=options.get("token_count") or "", benchmark=options.get("benchmark"))
    try:
        imported = import_stored_records(run, upload.file.name, upload.name, progress,
                                         format_name=options.get("format") or None, options=read_options)
    except RecordImportError as rejected:
        raise ImportRejected([ImportIssue(message) for message in rejected.errors]) from None
    summary = _("%(rows)s records imported from %(name)s (%(format)s, SHA-256 %(checksum)s).") % {
        "rows": imported.rows, "name": imported.name, "format": imported.format, "checksum": imported.checksum[:16]}
    if imported.skipped:
        summary += " " + _("Skipped: %(reasons)s.") % {
            "reasons": "; ".join(f"{count} {reason}" for reason, count in imported.skipped.items())}
    # The import kept a compressed copy (ImportedFile.stored): the uploaded original goes.
    outcome = Outcome(summary, rows=imported.rows)
    if upload.options.get("aggregate"):
        from .aggregation import aggregate_run

        try:
            outcome.snapshot = aggregate_run(run, publish=run.source.auto_publish)
        except Exception as exc:  # the records are in (committed); the run can be aggregated later
            log.exception("upload %s: run %s imported but not aggregated", upload.pk, run.pk)
            outcome.attention = True
            outcome.summary += " " + _("The run could not be aggregated (%(error)s); the error is in the "
                                       "worker's log.") % {"error": type(exc).__name__}
        else:
            outcome.summary += " " + _("The run was aggregated into snapshot #%(pk)s (%(status)s).") % {
                "pk": outcome.snapshot.pk, "status": outcome.snapshot.get_status_display().lower()}
    return outcome
