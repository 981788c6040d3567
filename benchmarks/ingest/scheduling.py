"""Starting refreshes: which sources are due, and the admin's "Refresh now"."""

import logging

from django.db import transaction
from django.db.models import Max

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
