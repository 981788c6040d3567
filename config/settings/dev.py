"""Zero-setup development: SQLite, tasks run in-process, nothing else to start."""

from .base import *  # noqa: F401,F403
from .base import BASE_DIR, CACHE_URL, DATABASES
from .env import env_bool, env_str

DEBUG = env_bool("DEBUG", True)
ALLOWED_HOSTS = ["*"]
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", env_str("CELERY_BROKER_URL") is None)
CELERY_TASK_EAGER_PROPAGATES = True
# No heartbeat thread for refreshes: SQLite has one writer, and `make run` runs no sweep to read it.
REFRESH_HEARTBEAT_SECONDS = float(env_str("REFRESH_HEARTBEAT_SECONDS", "0"))
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
WHITENOISE_USE_FINDERS = True

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The editor's autosave and preview post in the same second: with SQLite's default rollback journal
    # and no wait, the second writer got "database is locked" (HTTP 500). WAL lets readers run beside the
    # writer; IMMEDIATE takes the write lock when a transaction starts, so a waiting writer waits out the
    # busy timeout instead of failing on a lock upgrade halfway through.
    DATABASES["default"]["OPTIONS"] = {
        **DATABASES["default"].get("OPTIONS", {}),
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }

if not CACHE_URL:
    # One cache for every process of the dev setup: `manage.py import_snapshot` in another terminal
    # bumps the data generation that runserver's cached pages are keyed on. A per-process memory
    # cache would keep serving the old figures until something in runserver itself bumped it.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": env_str("DEV_CACHE_DIR", str(BASE_DIR / "var" / "cache")),
        }
    }
