"""Celery tasks. Probe tasks are routed to the `probes` queue (CELERY_TASK_ROUTES in settings)."""

import logging

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from .models import ProbeConfig, RequestRecord, Run, Series, missing_key_on_worker_message
from .probe import stream_completion
from .scheduling import (
    api_key,
    claim_due_configs,
    droppable_records,
    missing_key_message,
    region,
    reserve_request,
)

log = logging.getLogger(__name__)


@shared_task(name="firstparty.tasks.probe_endpoint")
def probe_endpoint(config_id):
    """One scheduled probe: check key and budget, stream one completion, store one record."""
    config = ProbeConfig.objects.select_related("endpoint__provider", "endpoint__model").get(pk=config_id)
    key = api_key(config)
    if key is None:
        message = missing_key_message(config)
        ProbeConfig.objects.filter(pk=config.pk).update(last_error=message[:300])
        log.error("%s", message)
        return None
    if not reserve_request(config):
        log.info("probe budget of %s reached for today (%s requests)", config.endpoint, config.daily_budget)
        return None
    result = stream_completion(config.request_parameters(), key)  # no transaction open while streaming
    record = RequestRecord.objects.create(endpoint=config.endpoint, series=config.series, region=region(),
                                          **result.record_fields())
    if config.last_error:
        ProbeConfig.objects.filter(pk=config.pk).update(last_error="")
    log.info("probe %s: %s", config.endpoint, record.outcome)
    return record.pk


@shared_task(name="firstparty.tasks.dispatch_due_probes")
def dispatch_due_probes():
    """Beat runs this every PROBE_DISPATCH_SECONDS; it only enqueues, the probes queue does the work."""
    enqueued = []
    for config in claim_due_configs():
        if config.budget_exhausted():
            continue
        probe_endpoint.apply_async(args=[config.pk])
        enqueued.append(config.pk)
    return enqueued


@shared_task(name="firstparty.tasks.run_endpoint_batch")
def run_endpoint_batch(run_id, endpoint_id):
    """All requests of one endpoint in a run, one after another (concurrency one), with the frozen settings."""
    run = Run.objects.get(pk=run_id)
    params = run.config["endpoints"][str(endpoint_id)]
    key = api_key(params)
    if key is None:
        # The web process had the key when the run started; this worker has not. Stop the run visibly
        # instead of leaving it "running" for ever.
        problem = {"code": "missing_key", "variable": params["api_key_env"], "endpoint": endpoint_id, "region": region()}
        log.error("run %s: %s", run_id, missing_key_on_worker_message(params["api_key_env"], endpoint_id, region()))
        Run.objects.filter(pk=run_id, status=Run.Status.RUNNING).update(status=Run.Status.STOPPED, problem=problem)
        return 0
    done = run.records.filter(endpoint_id=endpoint_id).count()
    planned = run.frozen_requests_per_endpoint()
    for _ in range(done, planned):
        result = stream_completion(params, key)
        RequestRecord.objects.create(endpoint_id=endpoint_id, run=run, region=region(), **result.record_fields())
    finish_run_if_complete(run_id)
    return max(planned - done, 0)


def finish_run_if_complete(run_id):
    from .aggregation import aggregate_run

    with transaction.atomic():
        run = Run.objects.select_for_update().get(pk=run_id)
        recorded, expected = run.progress()
        if run.status != Run.Status.RUNNING or expected is None or recorded < expected:
            return False
        run.status = Run.Status.FINISHED
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "finished_at"])
    aggregate_run(run, publish=run.source.auto_publish)
    return True


@shared_task(name="firstparty.tasks.aggregate_series")
def aggregate_series():
    """Write one snapshot per series for each aggregation period that has ended."""
    from .aggregation import aggregate_series_period, due_period_ends

    written = []
    now = timezone.now()
    for series in Series.objects.select_related("source"):
        for end in due_period_ends(series, now):
            snapshot = aggregate_series_period(series, end)
            if snapshot:
                written.append(snapshot.pk)
    return written


@shared_task(name="firstparty.tasks.drop_old_records")
def drop_old_records():
    deleted, _details = droppable_records().delete()
    log.info("retention: dropped %s aggregated request records", deleted)
    return deleted


@shared_task(name="firstparty.tasks.import_records_upload")
def import_records_upload(upload_id):
    """A records file uploaded on a run in the admin: checked and imported here, in bounded memory."""
    from benchmarks.ingest.uploads import run_upload

    from .uploads import import_records_file

    return run_upload(upload_id, import_records_file)
