"""Production configuration fails early and clearly; a complete one passes check --deploy."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOOD_KEY = "k" + "x7#Qm2!pL9zR4vT8wY1uN6bH3jF0dS5aG" * 2
PRODUCTION_VARIABLES = {"SECRET_KEY", "DATABASE_URL", "MIGRATION_DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "CACHE_URL"}


def run_manage(args, **env):
    base = {k: v for k, v in os.environ.items() if k not in PRODUCTION_VARIABLES}
    base.update(DJANGO_SETTINGS_MODULE="config.settings.production", **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=base, capture_output=True, text=True, timeout=120
    )


def test_production_refuses_to_start_without_secret_key():
    result = run_manage(["check"], DATABASE_URL="postgres://postgres@127.0.0.1/x", CELERY_BROKER_URL="redis://x")
    assert result.returncode != 0
    assert result.stderr.strip() == "Configuration error: SECRET_KEY is not set: export SECRET_KEY=... before starting."


def test_production_refuses_sqlite():
    result = run_manage(["check"], SECRET_KEY=GOOD_KEY, DATABASE_URL="sqlite:///x.db", CELERY_BROKER_URL="redis://x")
    assert result.returncode != 0
    assert "must point to PostgreSQL" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_production_refuses_a_migration_database_that_is_not_postgresql():
    result = run_manage(
        ["check"], SECRET_KEY=GOOD_KEY, DATABASE_URL="postgres://llmbench_app@127.0.0.1/x",
        MIGRATION_DATABASE_URL="sqlite:///x.db", CELERY_BROKER_URL="redis://x",
    )
    assert result.returncode != 0
    assert result.stderr.strip() == (
        "Configuration error: MIGRATION_DATABASE_URL must point to PostgreSQL (postgres://...), like DATABASE_URL."
    )


def test_production_refuses_missing_broker():
    result = run_manage(["check"], SECRET_KEY=GOOD_KEY, DATABASE_URL="postgres://postgres@127.0.0.1/x", ALLOWED_HOSTS="x")
    assert result.returncode != 0
    assert "CELERY_BROKER_URL is not set" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_production_check_deploy_is_clean():
    result = run_manage(
        ["check", "--deploy", "--fail-level", "WARNING"],
        SECRET_KEY=GOOD_KEY,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        REDIS_URL="redis://127.0.0.1:6379/0",
        ALLOWED_HOSTS="bench.example.com",
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_a_per_process_memory_cache():
    result = run_manage(
        ["check"],
        SECRET_KEY=GOOD_KEY,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        ALLOWED_HOSTS="bench.example.com",
    )
    assert result.returncode != 0
    assert result.stderr.strip() == (
        "Configuration error: REDIS_URL (or CACHE_URL) is not set: the web processes and the Celery worker "
        "need one shared cache; a per-process memory cache would keep serving figures from before a refresh."
    )


def test_unreachable_database_fails_at_start_with_one_line():
    result = subprocess.run(
        [sys.executable, "-c", "import config.wsgi"],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "SECRET_KEY": GOOD_KEY,
            "DATABASE_URL": "postgres://postgres@127.0.0.1:1/nowhere",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
            "REDIS_URL": "redis://127.0.0.1:6379/0",
            "ALLOWED_HOSTS": "x",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert "database is unreachable" in last


def test_wsgi_start_without_secret_key_is_one_line():
    env = {k: v for k, v in os.environ.items() if k not in PRODUCTION_VARIABLES}
    result = subprocess.run(
        [sys.executable, "-c", "import config.wsgi"],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.production"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert result.stderr.strip() == (
        "Cannot start: configuration error: SECRET_KEY is not set: export SECRET_KEY=... before starting."
    )
