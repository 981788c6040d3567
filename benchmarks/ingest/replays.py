"""The admin's "Replay from file": saved upstream answers uploaded for one source, stored on disk in
the uploads storage (shared by web processes and workers), replayed by a Celery task through the
whole refresh, then deleted (the snapshot keeps the payload verbatim). The run page follows it like
any refresh. For support: show what a saved answer would do, or bring in data fetched elsewhere."""

import logging
import re

from django.db import transaction
from django.utils.text import get_valid_filename

from ..refresh_models import RefreshConfig, RefreshRun
from ..upload_models import uploads_storage
from .adapters import RefreshError
from .adapters.replay import SavedPayloads
from .refresh import fail, run_refresh

log = logging.getLogger(__name__)
_NUMBER = re.compile(r"(\d+)")


def natural(name):
    """page2.json before page10.json: files are replayed in the order of their names."""
    return [int(part) if part.isdigit() else part.lower() for part in _NUMBER.split(name)]


def enqueue_replay(source, uploaded, user=None, queue=None):
    """Store the uploaded files (Django UploadedFiles), record a queued run, queue its task on commit."""
    config = RefreshConfig.objects.get(source=source)
    run = RefreshRun.objects.create(
        source=source,
        adapter=config.adapter,
        trigger=RefreshRun.Trigger.REPLAY,
        requested_by=user,
        progress="Waiting for a worker",
    )
    storage, stored = uploads_storage(), []
    for number, file in enumerate(sorted(uploaded, key=lambda f: natural(f.name)), start=1):
        name = storage.save(f"refresh-replay/{run.pk}/{number:02d}-{get_valid_filename(file.name)}", file)
        stored.append({"name": file.name[:200], "stored": name})
    RefreshRun.objects.filter(pk=run.pk).update(payload_files=stored)
    run.payload_files = stored
    options = {"queue": queue} if queue else {}

    def send():
        from .tasks import replay_refresh

        try:
            replay_refresh.apply_async(kwargs={"run_id": run.pk}, **options)
        except Exception as exc:  # an unreachable broker must not leave a run "queued" for ever
            log.exception("could not queue the replay run %s", run.pk)
            forget_files(run)
            fail(run, f"could not reach the task queue ({exc.__class__.__name__}): {exc}")

    transaction.on_commit(send)
    return run


def run_replay(run_id):
    """In the worker: replay the run's stored files through the refresh, then delete them."""
    run = RefreshRun.objects.filter(pk=run_id).first()
    if run is None or run.is_finished:
        return run_id  # gone, or a redelivered message for a run that already has its outcome
    try:
        payloads = SavedPayloads.from_storage(uploads_storage(), run.payload_files)
    except RefreshError as exc:
        forget_files(run)
        return fail(run, str(exc)).pk
    try:
        return run_refresh(run.source_id, run_id=run.pk, replay=payloads).pk
    finally:
        forget_files(run)


def forget_files(run):
    storage = uploads_storage()
    for item in run.payload_files:
        try:
            storage.delete(item["stored"])
        except OSError:
            log.warning("replay run %s: could not delete %s", run.pk, item["stored"], exc_info=True)
    RefreshRun.objects.filter(pk=run.pk).update(payload_files=[])
