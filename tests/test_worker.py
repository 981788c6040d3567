"""A real Celery worker process consumes from the local Redis and writes to the test database."""

import time
import uuid

import pytest

from benchmarks.ingest.tasks import heartbeat
from benchmarks.models import WorkerHeartbeat

from .worker_support import celery_worker


@pytest.fixture
def celery_worker_process():
    queue = f"test-{uuid.uuid4().hex[:8]}"
    with celery_worker(queue) as proc:
        yield queue, proc


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_records_heartbeat_in_postgres(celery_worker_process):
    queue, proc = celery_worker_process
    label = f"ci-{uuid.uuid4().hex[:6]}"
    heartbeat.apply_async(args=[label], queue=queue)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if WorkerHeartbeat.objects.filter(worker=label).exists():
            break
        if proc.poll() is not None:
            pytest.fail(f"worker exited early:\n{proc.stdout.read()}")
        time.sleep(0.25)
    else:
        proc.terminate()
        pytest.fail(f"the worker did not run the task within 60 s:\n{proc.communicate(timeout=20)[0]}")
    assert WorkerHeartbeat.objects.get(worker=label).beat_at is not None
