"""Who may send a request now: API key present, daily budget left, endpoint due. No request is sent here."""

import logging
import os
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import ProbeConfig, ProbeUsage, RequestRecord, Run

log = logging.getLogger(__name__)


def missing_key_message(config):
    return _(
        "The environment variable %(name)s is not set on this server, so no request was sent to %(endpoint)s. "
        "Set it for the web process and every worker on the probes queue."
    ) % {"name": config.api_key_env, "endpoint": config.endpoint}


def api_key(config_or_params):
    name = config_or_params["api_key_env"] if isinstance(config_or_params, dict) else config_or_params.api_key_env
    return os.environ.get(name) or None


def reserve_request(config, now=None):
    """Count one request against today's budget; False when the budget is spent (nothing is counted then)."""
    day = timezone.localdate(now)
    try:
        with transaction.atomic():
            ProbeUsage.objects.get_or_create(config=config, day=day)
    except IntegrityError:  # another worker created today's row at the same moment
        pass
    return ProbeUsage.objects.filter(config=config, day=day, count__lt=config.daily_budget).update(
        count=F("count") + 1
    ) == 1


def claim_due_configs(now=None):
    """Enabled endpoints whose cadence has come round; their next due time moves on in the same short
    transaction, so two beat dispatchers never enqueue the same endpoint twice."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            ProbeConfig.objects.select_for_update(skip_locked=True)
            .filter(enabled=True)
            .filter(Q(next_due_at__isnull=True) | Q(next_due_at__lte=now))
        )
        for config in due:
            config.schedule_next(now)
            ProbeConfig.objects.filter(pk=config.pk).update(next_due_at=config.next_due_at)
    return due


def start_run(run, now=None):
    """Freeze the configuration of every endpoint and mark the run running; the caller enqueues batches.

    Refused (ValidationError, nothing sent) when an endpoint has no probe configuration or its key
    variable is not set here.
    """
    from .models import ProbeConfig

    endpoints = list(run.endpoints.select_related("provider", "model"))
    if not endpoints:
        raise ValidationError(_("Choose at least one endpoint for the run."))
    configs = {c.endpoint_id: c for c in ProbeConfig.objects.filter(endpoint__in=endpoints).select_related("endpoint")}
    problems = []
    for endpoint in endpoints:
        config = configs.get(endpoint.pk)
        if config is None:
            problems.append(_("%(endpoint)s has no probe configuration.") % {"endpoint": endpoint})
        elif not api_key(config):
            problems.append(missing_key_message(config))
    if problems:
        raise ValidationError(problems)
    if run.status != Run.Status.DRAFT:
        raise ValidationError(_("This run has already been started."))
    run.freeze([configs[e.pk] for e in endpoints])
    run.status = Run.Status.RUNNING
    run.started_at = now or timezone.now()
    run.save(update_fields=["config", "status", "started_at"])
    return [e.pk for e in endpoints]


def resume_run(run):
    """Put a stopped run back to running with its frozen configuration; the caller re-enqueues the batches
    (each batch goes on from the records it already has). Refused while a key is still missing here."""
    if run.status != Run.Status.STOPPED:
        raise ValidationError(_("Only a stopped run can be resumed."))
    endpoints = run.config.get("endpoints", {})
    problems = [
        _("The environment variable %(name)s is not set on this server either.") % {"name": params["api_key_env"]}
        for params in endpoints.values() if not api_key(params)
    ]
    if problems:
        raise ValidationError(sorted(set(problems)))
    run.status = Run.Status.RUNNING
    run.problem = {}
    run.save(update_fields=["status", "problem"])
    return [int(endpoint_id) for endpoint_id in endpoints]


def region():
    return settings.PROBE_REGION


def retention_cutoff(now=None):
    return (now or timezone.now()) - timedelta(days=settings.FIRSTPARTY_RETENTION_DAYS)


def droppable_records(now=None):
    """Records older than the retention period whose figures are already in a snapshot."""
    cutoff = retention_cutoff(now)
    return RequestRecord.objects.filter(started_at__lt=cutoff).filter(
        Q(run__snapshot__isnull=False) | Q(series__aggregated_until__gt=F("started_at"))
    )
