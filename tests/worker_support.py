"""A real Celery worker process for tests: on the local Redis broker and the test PostgreSQL database."""

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

from config.celery import app

ROOT = Path(__file__).resolve().parent.parent


def database_url():
    s = connection.settings_dict
    return f"postgres://{s['USER'] or 'postgres'}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@contextmanager
def celery_worker(queue, env=None, output=subprocess.PIPE):
    """A worker consuming `queue` (solo pool) while the block runs; tasks sent meanwhile go to the broker
    instead of running in the test process. `env` adds to the worker's environment; `output` takes its
    stdout and stderr (a pipe, or an open log file)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "--pool=solo",
         "--without-gossip", "--without-mingle", "-l", "info"],
        cwd=ROOT,
        env={**os.environ, "TEST_DATABASE_URL": database_url(), "DJANGO_SETTINGS_MODULE": "config.settings.test",
             **(env or {})},
        stdout=output, stderr=subprocess.STDOUT, text=True,
    )
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        yield proc
    finally:
        app.conf.task_always_eager = eager
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
