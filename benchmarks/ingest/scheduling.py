"""Starting refreshes: which sources are due, and the admin's "Refresh now"."""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from ..refresh_models import RefreshConfig, RefreshRun
from .refresh import fail

log = logging.getLogger(__name__)


def task_for_adapter(adapter):
    from . import tasks

    return {
        "artificial_analysis": tasks.refresh_artificial_analysis,
        "artificial_analysis_legacy_file": tasks.refresh_artificial_analysis,
        "openrouter": tasks.refresh_openrouter,
        "litellm": tasks.refresh_litellm,
    }[adapter]


def enqueue_refresh(source, user=None, queue=None):
    """The admin's "Refresh now": a queued run the page can poll, and the task that will run it."""
    config = RefreshConfig.objects.get(source=source)
    run = RefreshRun.objects.create(
        source=source,
        adapter=config.adapter,
        trigger=RefreshRun.Trigger.MANUAL,
        requested_by=user,
        progress="Waiting for a worker",
    )
    task = task_for_adapter(config.adapter)
    options = {"queue": queue} if queue else {}

    def send():
        try:
            task.apply_async(kwargs={"source_id": source.pk, "run_id": run.pk}, **options)
        except Exception as exc:  # an unreachable broker must not leave a run "queued" forever
            log.exception("could not queue the refresh of source %s", source.pk)
            fail(run, f"could not reach the task queue ({exc.__class__.__name__}): {exc}")

    transaction.on_commit(send)
    return run


def due_configs(adapters, now=None):
    """Enabled sources of these adapters whose interval has passed since their last run started."""
    configs = (
        RefreshConfig.objects.filter(enabled=True, adapter__in=adapters)
        .select_related("source")
        .annotate(last_started=Max("source__refresh_runs__started"))
    )
    return [config for config in configs if config.is_due(config.last_started, now)]


def silence_limit():
    """How long a running run may go without a heartbeat before the sweep calls it dead."""
    if settings.REFRESH_HEARTBEAT_SECONDS > 0:
        return timedelta(seconds=settings.REFRESH_HEARTBEAT_TIMEOUT_SECONDS)
    return timedelta(minutes=settings.REFRESH_STUCK_AFTER_MINUTES)  # heartbeats off: judged by the start


def fail_stuck_runs(now=None):
    """Close the runs whose worker or database died under them (the periodic sweep), saying what the
    database holds of them, not what probably happened.

    A running run beats (ingest/heartbeat.py): one whose last heartbeat is older than
    REFRESH_HEARTBEAT_TIMEOUT_SECONDS lost its worker, whatever its start time; a long run that still
    beats is left alone. A run still "queued" after twice REFRESH_STUCK_AFTER_MINUTES lost its task
    message. Either would otherwise stay open and the refresh page would keep saying a refresh is
    under way. A run's snapshot and its outcome commit in one transaction (refresh.py), so a run left
    "running" wrote no snapshot; one that names a snapshot anyway gets the outcome that snapshot shows.
    Returns the ids it closed.
    """
    now = now or timezone.now()
    silent_since = now - silence_limit()
    running = RefreshRun.objects.filter(status=RefreshRun.Status.RUNNING).filter(
        Q(heartbeat_at__lt=silent_since) | Q(heartbeat_at__isnull=True, started__lt=silent_since)
    )
    closed = []
    for run in running.select_related("snapshot").only("pk", "source_id", "snapshot", "heartbeat_at", "worker",
                                                        "started"):
        closed += _close(run, RefreshRun.Status.RUNNING, now, **_outcome_of_stuck_run(run))
    limit = timedelta(minutes=settings.REFRESH_STUCK_AFTER_MINUTES)
    queued = RefreshRun.objects.filter(status=RefreshRun.Status.QUEUED, queued_at__lt=now - 2 * limit)
    for run in queued.only("pk", "source_id", "payload_files"):
        reason = (
            f"no worker started the run within {2 * settings.REFRESH_STUCK_AFTER_MINUTES} minutes "
            "(the task message was lost); refresh again."
        )
        lost = _close(run, RefreshRun.Status.QUEUED, now, status=RefreshRun.Status.FAILED, error=reason)
        if lost and run.payload_files:
            from .replays import forget_files

            forget_files(run)  # a replay's uploaded files: nothing will read them now
        closed += lost
    return closed


def _silence(run):
    last = run.heartbeat_at or run.started
    worker = f" from {run.worker}" if run.worker else ""
    return f"its worker stopped beating: the last heartbeat{worker} was at {timezone.localtime(last):%Y-%m-%d %H:%M:%S}"


def _outcome_of_stuck_run(run):
    snapshot = run.snapshot
    if snapshot is None:
        return {
            "status": RefreshRun.Status.FAILED,
            "error": (
                f"{_silence(run)}, so the worker process or the database stopped under the run. It wrote no "
                "snapshot (a snapshot and its run's outcome are saved in one transaction), so readers see the "
                "data they saw before; refresh again."
            ),
        }
    from ..models import Snapshot

    held = snapshot.status == Snapshot.Status.DRAFT and snapshot.held_for_review
    published = snapshot.status != Snapshot.Status.DRAFT
    return {
        "status": RefreshRun.Status.HELD if held else RefreshRun.Status.CHANGED,
        "published": published,
        "notes": (
            f"Snapshot #{snapshot.pk} was written ({snapshot.get_status_display()}), then the worker or the "
            f"database stopped before the run was closed ({_silence(run)}); the sweep closed it."
        ),
    }


def _close(run, expected_status, now, **values):
    # Re-checked in the UPDATE: a run that finished meanwhile keeps its real outcome.
    if not RefreshRun.objects.filter(pk=run.pk, status=expected_status).update(finished=now, progress="", **values):
        return []
    log.warning("refresh run %s of source %s closed by the sweep: %s", run.pk, run.source_id,
                values.get("error") or values.get("notes"))
    return [run.pk]
