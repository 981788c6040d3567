"""`make run`'s SQLite database takes two writers in the same second (autosave and preview) without a 500."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_INHERITED = {"REDIS_URL", "CACHE_URL", "CELERY_BROKER_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE"}

# Two threads of one dev process, each with its own connection, as runserver serves two requests. The
# first holds a write transaction for a second; the second writes meanwhile and must wait, not fail.
TWO_WRITERS = """
import threading, time
import django
django.setup()
from django.db import connection, transaction
with connection.cursor() as cursor:
    print(cursor.execute("PRAGMA journal_mode").fetchone()[0])
    print(cursor.execute("PRAGMA busy_timeout").fetchone()[0])
    cursor.execute("CREATE TABLE IF NOT EXISTS autosave (n integer)")
holding = threading.Event()
errors = []

def first():
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO autosave VALUES (1)")
        holding.set()
        time.sleep(1)
    connection.close()

def second():
    holding.wait()
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM autosave")
                cursor.execute("INSERT INTO autosave VALUES (2)")
    except Exception as exc:
        errors.append(repr(exc))
    connection.close()

threads = [threading.Thread(target=first), threading.Thread(target=second)]
[t.start() for t in threads]
[t.join() for t in threads]
with connection.cursor() as cursor:
    print(cursor.execute("SELECT count(*) FROM autosave").fetchone()[0])
print(errors)
"""


def test_the_dev_sqlite_database_runs_in_wal_and_waits_for_a_busy_writer(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.dev", DEV_CACHE_DIR=str(tmp_path / "cache"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'dev.sqlite3'}",
    )
    result = subprocess.run(
        [sys.executable, "-c", TWO_WRITERS], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    journal_mode, busy_timeout, rows, errors = result.stdout.split("\n")[:4]
    assert journal_mode == "wal"
    assert int(busy_timeout) >= 5000
    assert errors == "[]"
    assert rows == "2"


def test_make_run_serves_on_the_host_and_port_given():
    result = subprocess.run(
        ["make", "-n", "run", "HOST=0.0.0.0", "PORT=8001"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert "runserver 0.0.0.0:8001" in result.stdout
    default = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "runserver 127.0.0.1:8000" in default.stdout
