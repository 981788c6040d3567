"""A real Celery worker process consumes from the local Redis and writes to the test database."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from benchmarks.ingest.tasks import heartbeat
from benchmarks.models import WorkerHeartbeat
from config.celery import app

ROOT = Path(__file__).resolve().parent.parent


def database_url():
    s = connection.settings_dict
    return f"postgres://{s['USER'] or 'postgres'}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture
def celery_worker_process():
    queue = f"test-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "TEST_DATABASE_URL": database_url(), "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "--pool=solo",
         "--without-gossip", "--without-mingle", "-l", "info"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        yield queue, proc
    finally:
        app.conf.task_always_eager = eager
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


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
