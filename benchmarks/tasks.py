import logging
import socket

from celery import shared_task

from .models import WorkerHeartbeat

log = logging.getLogger(__name__)


@shared_task(name="benchmarks.tasks.heartbeat")
def heartbeat(worker_label=None):
    """Record that a worker picked up work; the admin dashboard shows the last beat."""
    beat = WorkerHeartbeat.objects.create(worker=worker_label or socket.gethostname())
    log.info("worker heartbeat %s from %s", beat.pk, beat.worker)
    return beat.pk
