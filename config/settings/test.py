"""Tests run on PostgreSQL and Redis, like production (addresses from the environment)."""

import os
import tempfile
from pathlib import Path

import dj_database_url

from config.cache_backend import redis_cache

from .base import *  # noqa: F401,F403
from .base import STORAGES
from .env import env_str

DATABASES = {
    "default": dj_database_url.parse(
        env_str("TEST_DATABASE_URL", os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/llmbench")
    )
}
# Migrations of the test database run on its own connection, never on an owner's address from the shell.
MIGRATION_DATABASE = None
REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/15")
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "redis://127.0.0.1:6379/14")
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CACHES = {"default": redis_cache(REDIS_URL, f"test-{os.getpid()}")}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SECRET_KEY = "test-secret-key-not-for-production-0123456789-abcdefghijklmnop"
ALLOWED_HOSTS = ["*"]
# Static files straight from the app folders: the test run does no collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Tests read the generations from Redis on every request (test_page_cache covers the per-process copies).
PAGE_CACHE_LOCAL_SECONDS = 0
# Uploaded import files: a scratch folder of this test run, which the Celery workers and subprocesses it
# starts inherit through the environment; tests/conftest.py removes it when the run ends.
os.environ.setdefault("UPLOADS_DIR", str(Path(tempfile.gettempdir()) / f"llmbench-test-uploads-{os.getpid()}"))
UPLOADS_DIR = os.environ["UPLOADS_DIR"]
STORAGES = {**STORAGES, "uploads": {**STORAGES["uploads"], "OPTIONS": {"location": UPLOADS_DIR}}}
