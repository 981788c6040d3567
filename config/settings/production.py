"""Production: refuses to start without a secret key, PostgreSQL, a broker and a shared cache."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F401,F403
from .base import CACHES, DATABASES, MIGRATION_DATABASE, STORAGES
from .env import env_bool, env_int, env_list, env_str

SECRET_KEY = env_str("SECRET_KEY", required=True)
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
    raise ImproperlyConfigured("SECRET_KEY is too short: use at least 50 random characters.")
env_str("DATABASE_URL", required=True)
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("DATABASE_URL must point to PostgreSQL (postgres://...) in production.")
if MIGRATION_DATABASE and MIGRATION_DATABASE["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("MIGRATION_DATABASE_URL must point to PostgreSQL (postgres://...), like DATABASE_URL.")
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", required=True)
DEBUG = env_bool("DEBUG", False)
# Someone other than who prepared a translation or a draft of data approves it (config/four_eyes.py).
FOUR_EYES_APPROVAL = env_bool("FOUR_EYES_APPROVAL", True)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is not set: export ALLOWED_HOSTS=example.com,www.example.com.")
# Production always runs several processes: gunicorn's workers and the Celery worker, whose refreshes
# bump the data generation that cached pages are keyed on. With a per-process memory cache each web
# process would keep serving figures from before a refresh, so one shared cache is required.
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache":
    raise ImproperlyConfigured(
        "REDIS_URL (or CACHE_URL) is not set: the web processes and the Celery worker need one shared "
        "cache; a per-process memory cache would keep serving figures from before a refresh."
    )

# Only behind a reverse proxy that terminates TLS and sets X-Forwarded-Proto itself (overwriting what
# a client sent): trusting the header anywhere else lets any client claim its request was HTTPS.
if env_bool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Wagtail's live preview renders the page in a same-origin iframe, so DENY would break editing.
X_FRAME_OPTIONS = "SAMEORIGIN"
SILENCED_SYSTEM_CHECKS = ["security.W019"]

# Static files: WhiteNoise serves the collectstatic output under gunicorn, with hashed names (cached
# for a year by browsers and CDNs) and gzip/Brotli copies made once at collectstatic time.
STORAGES = {
    **STORAGES,  # "default" and "uploads" (UPLOADS_DIR) as in base.py
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Persistent database connections: each gunicorn worker keeps its connection for CONN_MAX_AGE
# seconds instead of opening one per request; health checks drop a connection the server closed.
DATABASES["default"]["CONN_MAX_AGE"] = env_int("CONN_MAX_AGE", 600)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

