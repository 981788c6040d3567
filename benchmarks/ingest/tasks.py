import logging
import socket

from celery import shared_task
from django.conf import settings

from ..models import WorkerHeartbeat
from ..refresh_models import Adapter, RefreshRun

log = logging.getLogger(__name__)


@shared_task(
    name="benchmarks.tasks.invalidate_cache",
    autoretry_for=(Exception,),
    retry_backoff=30,
    retry_backoff_max=900,
    max_retries=20,
)
def invalidate_cache():
    """Bump the data generation after a cache outage hid a change from it (cache.invalidate_after_commit)."""
    from ..cache import bump_cache_generation

    # The database's content version was bumped with the change; which keys it had is lost with the
    # failed bump, so every dependency-keyed copy goes too.
    return bump_cache_generation(everything=True)


@shared_task(name="benchmarks.tasks.import_upload")
def import_upload(upload_id):
    """A snapshot or price file uploaded in the admin (benchmarks/ingest/uploads.py)."""
    from .uploads import import_data_file, run_upload

    return run_upload(upload_id, import_data_file)


@shared_task(name="benchmarks.tasks.sweep_stuck_runs")
def sweep_stuck_runs():
    """Celery beat: close runs left "running" or "queued" by a dead worker (scheduling.fail_stuck_runs)."""
    from .scheduling import fail_stuck_runs

    return fail_stuck_runs()


@shared_task(name="benchmarks.tasks.heartbeat")
def heartbeat(worker_label=None):
    """Record that a worker picked up work; the admin dashboard shows the last beat."""
    beat = WorkerHeartbeat.objects.create(worker=worker_label or socket.gethostname())
    log.info("worker heartbeat %s from %s", beat.pk, beat.worker)
    return beat.pk


# A run has its own deadline (REFRESH_RUN_DEADLINE); these limits stop a task that runs past it anyway
# (a database that hangs, a bug): the soft limit records the run as failed, the hard one ends the process.
REFRESH_LIMITS = {
    "soft_time_limit": settings.REFRESH_TASK_SOFT_TIME_LIMIT,
    "time_limit": settings.REFRESH_TASK_TIME_LIMIT,
}


def refresh_sources(adapters, source_id=None, run_id=None):
    """One source when asked ("Refresh now"), otherwise every enabled source of these adapters that is due.

    Sources run one after another: upstream rate limits are per key, not per source.
    """
    from .refresh import run_refresh
    from .scheduling import due_configs

    if source_id is not None:
        trigger = RefreshRun.Trigger.MANUAL if run_id else RefreshRun.Trigger.SCHEDULE
        return [run_refresh(source_id, run_id=run_id, trigger=trigger).pk]
    return [run_refresh(config.source_id).pk for config in due_configs(adapters)]


@shared_task(name="benchmarks.tasks.refresh_artificial_analysis", **REFRESH_LIMITS)
def refresh_artificial_analysis(source_id=None, run_id=None):
    return refresh_sources(
        [Adapter.ARTIFICIAL_ANALYSIS, Adapter.ARTIFICIAL_ANALYSIS_LEGACY_FILE],
        source_id=source_id,
        run_id=run_id,
    )


@shared_task(name="benchmarks.tasks.refresh_openrouter", **REFRESH_LIMITS)
def refresh_openrouter(source_id=None, run_id=None):
    return refresh_sources([Adapter.OPENROUTER], source_id=source_id, run_id=run_id)


@shared_task(name="benchmarks.tasks.refresh_litellm", **REFRESH_LIMITS)
def refresh_litellm(source_id=None, run_id=None):
    return refresh_sources([Adapter.LITELLM], source_id=source_id, run_id=run_id)


@shared_task(name="benchmarks.tasks.replay_refresh", **REFRESH_LIMITS)
def replay_refresh(run_id):
    """The admin's "Replay from file" (benchmarks/ingest/replays.py)."""
    from .replays import run_replay

    return run_replay(run_id)
