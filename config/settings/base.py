"""Settings shared by every environment. Values that differ come from the environment (see README)."""

from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from config.cache_backend import redis_cache

from .env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent.parent

SECRET_KEY = env_str("SECRET_KEY", "dev-only-insecure-key-change-me-0123456789-abcdefghijklmnopqrstuv")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # First: its `migrate` (as the tables' owner, config/db_roles.py) wraps wagtail_modeltranslation's.
    "config",
    # modeltranslation must patch models before Wagtail's admin and our apps load.
    "wagtail_modeltranslation",
    "wagtail_modeltranslation.makemigrations",
    "wagtail_modeltranslation.migrate",
    "modeltranslation",
    # Before our apps: its ready() connects an inline purge that articles.cache_purge then replaces
    # with a queued one (it has no templates, so its place changes nothing else).
    "wagtail.contrib.frontend_cache",
    "benchmarks",
    "firstparty",
    "articles",
    "reviews",
    "editorial",
    "wagtail.contrib.redirects",
    "wagtail.contrib.sitemaps",
    "wagtail.contrib.routable_page",
    "wagtail.embeds",
    "wagtail.sites",
    "wagtail.users",
    "wagtail.snippets",
    "wagtail.documents",
    "wagtail.images",
    "wagtail.search",
    "wagtail.admin",
    "wagtail",
    "modelcluster",
    "taggit",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files (hashed names, pre-compressed) are answered here, before anything else runs.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.compression.AnonymousGZipMiddleware",
    # Anonymous readers' pages come from the cache before sessions, auth or Wagtail are touched.
    "config.page_cache.PageCacheMiddleware",
    # Inside the page cache: pages rendered ahead name our own pages under a placeholder origin, written
    # here as the one the reader used (articles/addresses.py), before the copy is cached.
    "config.origin.OriginMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.csp.AdminPolicyMiddleware",
    "wagtail.contrib.redirects.middleware.RedirectMiddleware",
    # Last: an admin POST that can publish runs in one transaction (articles/publishing.py).
    "articles.publishing.AtomicAdminChangesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"), conn_max_age=env_int("CONN_MAX_AGE", 0)
    )
}
# The tables' owner, used by `migrate` and `grant_app_role` only (config/db_roles.py); DATABASE_URL is
# then a role that may only read and write rows. Unset: migrate uses DATABASE_URL's role.
MIGRATION_DATABASE = dj_database_url.parse(url) if (url := env_str("MIGRATION_DATABASE_URL")) else None
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Languages: English is the source language; Spanish is a first-class translation.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("es", _("Spanish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_LANGUAGES = ("en", "es")
# Fallback rules (documented in README): interface-less data fields fall back to English;
# page content does not (see articles/translation.py), so a missing Spanish body is visible.
MODELTRANSLATION_FALLBACK_LANGUAGES = {"default": ("en",)}
# Within a Spanish body that has approved text, a segment not translated yet shows its English text
# (False: empty). A body with no approved text at all stays empty either way (docs/translation.md).
TRANSLATION_SEGMENT_FALLBACK = env_bool("TRANSLATION_SEGMENT_FALLBACK", True)
WAGTAIL_I18N_ENABLED = False
# Four eyes (config/four_eyes.py): a translation, or a draft snapshot of data, is approved and published
# only by someone other than who prepared it. On in production unless FOUR_EYES_APPROVAL=0.
FOUR_EYES_APPROVAL = env_bool("FOUR_EYES_APPROVAL", False)

# Content-Security-Policy (django-csp) for the pages and the admin: everything from our own origin;
# no inline or injected script (the admin alone may run inline scripts: config/csp.py). Inline style attributes stay allowed (bar widths, Wagtail's admin
# widgets set them), <style> elements and stylesheets from elsewhere do not. data: images are the
# admin's icons and previews. Tests load the pages and the admin in Chromium and fail on a violation.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-src": ["'self'"],
        "frame-ancestors": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
    }
}

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "assets"]
MEDIA_URL = "/media/"
MEDIA_ROOT = BASE_DIR / "media"

# Files uploaded in the admin for import (request records, snapshots, prices) go to disk as they arrive
# (Django keeps at most FILE_UPLOAD_MAX_MEMORY_SIZE of one in memory), then into the "uploads" storage,
# where the Celery worker that imports them reads them; a records file stays there as the verbatim copy
# of what was imported. The folder is private (never served). The web processes and the workers must
# see the same storage: one machine, a shared volume, or another backend for STORAGES["uploads"].
UPLOADS_DIR = env_str("UPLOADS_DIR", str(BASE_DIR / "var" / "uploads"))
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # Django's default, stated: larger uploads are spooled to a temp file
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "uploads": {"BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": UPLOADS_DIR}},
}
# Largest files the upload pages accept. A records file is read as a stream by the worker (any size fits
# in bounded memory; the command has no limit). A snapshot or price file is held whole in memory and in
# the snapshot's raw payload, so it stays small, for the commands as well.
RECORDS_UPLOAD_MAX_BYTES = env_int("RECORDS_UPLOAD_MAX_BYTES", 200 * 1024 * 1024)
IMPORT_MAX_BYTES = env_int("IMPORT_MAX_BYTES", 5 * 1024 * 1024)
# How often an import writes its progress (rows and bytes read) for the progress page.
UPLOAD_PROGRESS_SECONDS = float(env_str("UPLOAD_PROGRESS_SECONDS", "1"))

# Figures: separators per language (the reference articles print "1,693.7" in both languages)
# and how old a figure may get before pages flag it stale (hours; "price" for prices).
NUMBER_FORMATS = {"en": {"thousands": ",", "decimal": "."}, "es": {"thousands": ",", "decimal": "."}}
FRESHNESS_MAX_AGE_HOURS = {}

WAGTAIL_SITE_NAME = "LLM API Benchmarks"
# An article's edit form posts one field per block setting: the demo article alone sends about a
# thousand, Django's default limit, so one more table made publishing fail with "Bad Request (400)".
# Wagtail recommends raising the limit for long StreamFields.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 10_000
# The admin makes no calls to outside hosts: no release check, no Gravatar.
WAGTAIL_ENABLE_UPDATE_CHECK = False
# Wagtail's own redirects on a slug change or move know only the English url_path: ours cover both
# languages, sub-routes and descendants (articles/address_redirects.py).
WAGTAILREDIRECTS_AUTO_CREATE = False
WAGTAIL_GRAVATAR_PROVIDER_URL = None
WAGTAILADMIN_BASE_URL = env_str("WAGTAILADMIN_BASE_URL", "http://127.0.0.1:8000")
WAGTAILSEARCH_BACKENDS = {"default": {"BACKEND": "wagtail.search.backends.database"}}
WAGTAILDOCS_EXTENSIONS = ["csv", "json", "pdf", "txt"]

# Celery: Redis broker; the dev settings run tasks in-process instead.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", None)
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE = {
    "worker-heartbeat": {"task": "benchmarks.tasks.heartbeat", "schedule": 300.0},
    "sweep-stuck-refresh-runs": {"task": "benchmarks.tasks.sweep_stuck_runs", "schedule": 300.0},
}

# First-party probes (docs/first-party-runs.md) run on their own queue so that workers in several regions
# can share them: `celery -A config worker -Q probes`. Beat wakes a dispatcher that enqueues the due
# endpoints; each endpoint's cadence and daily budget live in the admin.
CELERY_TASK_ROUTES = {
    "firstparty.tasks.probe_endpoint": {"queue": "probes"},
    "firstparty.tasks.run_endpoint_batch": {"queue": "probes"},
}
PROBE_REGION = env_str("PROBE_REGION", "")  # label written on every record this worker measures
PROBE_DISPATCH_SECONDS = env_int("PROBE_DISPATCH_SECONDS", 60)
FIRSTPARTY_RETENTION_DAYS = env_int("FIRSTPARTY_RETENTION_DAYS", 400)
CELERY_BEAT_SCHEDULE["firstparty-dispatch-probes"] = {
    "task": "firstparty.tasks.dispatch_due_probes", "schedule": float(PROBE_DISPATCH_SECONDS),
}
CELERY_BEAT_SCHEDULE["firstparty-aggregate-series"] = {
    "task": "firstparty.tasks.aggregate_series", "schedule": 300.0,
}
CELERY_BEAT_SCHEDULE["firstparty-retention"] = {"task": "firstparty.tasks.drop_old_records", "schedule": 86400.0}

# Data refresh (docs/upstreams.md). Beat wakes one task per upstream this often; each task then
# refreshes the enabled sources whose own interval ("refresh every", editable in the admin) has passed.
REFRESH_CHECK_MINUTES = {
    "artificial-analysis": env_int("REFRESH_ARTIFICIAL_ANALYSIS_CHECK_MINUTES", 15),
    "openrouter": env_int("REFRESH_OPENROUTER_CHECK_MINUTES", 15),
    "litellm": env_int("REFRESH_LITELLM_CHECK_MINUTES", 60),
}
for _upstream, _minutes in REFRESH_CHECK_MINUTES.items():
    if _minutes > 0:  # 0 switches scheduled refreshes of that upstream off
        CELERY_BEAT_SCHEDULE[f"refresh-{_upstream}"] = {
            "task": f"benchmarks.tasks.refresh_{_upstream.replace('-', '_')}",
            "schedule": 60.0 * _minutes,
        }
ARTIFICIAL_ANALYSIS_BASE_URL = env_str("ARTIFICIAL_ANALYSIS_BASE_URL", "https://artificialanalysis.ai/api/v2")
OPENROUTER_BASE_URL = env_str("OPENROUTER_BASE_URL", "https://openrouter.ai/api/v1")
LITELLM_PRICES_URL = env_str(
    "LITELLM_PRICES_URL",
    "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json",
)
REFRESH_FILES_DIR = env_str("REFRESH_FILES_DIR", str(BASE_DIR / "media" / "refresh"))
REFRESH_HTTP_TIMEOUT = env_int("REFRESH_HTTP_TIMEOUT", 20)  # seconds, per request
REFRESH_HTTP_ATTEMPTS = env_int("REFRESH_HTTP_ATTEMPTS", 3)
REFRESH_HTTP_BACKOFF = env_int("REFRESH_HTTP_BACKOFF", 2)  # seconds before the 2nd attempt, doubling after
REFRESH_MAX_RETRY_AFTER = env_int("REFRESH_MAX_RETRY_AFTER", 120)  # longest Retry-After a run waits
# Limits that keep one upstream from holding a worker or filling the database (docs/upstreams.md).
REFRESH_MAX_BODY_BYTES = env_int("REFRESH_MAX_BODY_BYTES", 20 * 1024 * 1024)  # per response, while streaming
REFRESH_RUN_DEADLINE = env_int("REFRESH_RUN_DEADLINE", 300)  # seconds for all requests of one run
# Unmapped rows stored per run (one per upstream key, updated in place): a guard for the database far
# above any upstream we read (LiteLLM lists about 3,500 priced keys); past it, the rest is counted.
REFRESH_MAX_UNMAPPED_STORED = env_int("REFRESH_MAX_UNMAPPED_STORED", 20000)
REFRESH_RATE_LIMIT_RESERVE = env_int("REFRESH_RATE_LIMIT_RESERVE", 2)  # requests a run never spends
# Celery limits of the refresh tasks; one task may run several sources one after another.
REFRESH_TASK_SOFT_TIME_LIMIT = env_int("REFRESH_TASK_SOFT_TIME_LIMIT", 900)
REFRESH_TASK_TIME_LIMIT = env_int("REFRESH_TASK_TIME_LIMIT", 960)
# Sent as "Authorization: Bearer"; without it OpenRouter publishes no latency or throughput.
OPENROUTER_API_KEY = env_str("OPENROUTER_API_KEY", "")
# A running refresh beats every REFRESH_HEARTBEAT_SECONDS (0: off); the sweep, every
# REFRESH_SWEEP_SECONDS, fails a run whose last beat is REFRESH_HEARTBEAT_TIMEOUT_SECONDS old: a killed
# worker's run is failed within timeout + sweep interval (90 s by default).
REFRESH_HEARTBEAT_SECONDS = float(env_str("REFRESH_HEARTBEAT_SECONDS", "15"))
REFRESH_HEARTBEAT_TIMEOUT_SECONDS = float(env_str("REFRESH_HEARTBEAT_TIMEOUT_SECONDS", "60"))
REFRESH_SWEEP_SECONDS = float(env_str("REFRESH_SWEEP_SECONDS", "30"))
CELERY_BEAT_SCHEDULE["sweep-stuck-refresh-runs"]["schedule"] = REFRESH_SWEEP_SECONDS
# A run still "queued" twice this long lost its task message; without heartbeats, a run still
# "running" this long after it started is dead. Keep it above the run's deadline and the tasks' limits.
REFRESH_STUCK_AFTER_MINUTES = env_int("REFRESH_STUCK_AFTER_MINUTES", 30)

# Longest time any cached copy of a page lives. A data-generation bump that
# fails during a cache outage is therefore outlived by no cached copy by more than this.
PAGE_CACHE_SECONDS = env_int("PAGE_CACHE_SECONDS", 300)
# How long a browser may reuse a page before revalidating it with its ETag (a 304 costs one cache read).
PAGE_BROWSER_SECONDS = env_int("PAGE_BROWSER_SECONDS", 60)
# Each worker also keeps the most read pages in memory and re-reads the generations from Redis
# at most this often: a publish made by another process shows within this many seconds.
PAGE_CACHE_LOCAL_SECONDS = env_int("PAGE_CACHE_LOCAL_SECONDS", 1)
PAGE_CACHE_LOCAL_ENTRIES = env_int("PAGE_CACHE_LOCAL_ENTRIES", 200)

# Articles are rendered ahead by a Celery task and served from PostgreSQL while still exact
# (articles/prerender.py). A stored copy lives at most ARTICLE_PRERENDER_SECONDS (less when a figure
# turns stale sooner); beat replaces copies that expire within the margin, so keep the margin above
# the beat interval.
ARTICLE_PRERENDER = env_bool("ARTICLE_PRERENDER", True)
# The code version stored renderings and cached pages are made by (config/code_version.py); empty: a
# digest of the templates, modules, translations and static files. A deploy may name its commit.
RENDERING_VERSION = env_str("RENDERING_VERSION", "")
ARTICLE_PRERENDER_SECONDS = env_int("ARTICLE_PRERENDER_SECONDS", 3600)
ARTICLE_PRERENDER_BEAT_SECONDS = env_int("ARTICLE_PRERENDER_BEAT_SECONDS", 60)
ARTICLE_PRERENDER_MARGIN_SECONDS = env_int("ARTICLE_PRERENDER_MARGIN_SECONDS", 150)
ARTICLE_PRERENDER_QUEUE = env_str("ARTICLE_PRERENDER_QUEUE", "")  # empty: Celery's default queue
CELERY_BEAT_SCHEDULE["articles-prerender-due"] = {
    "task": "articles.tasks.prerender_due", "schedule": float(ARTICLE_PRERENDER_BEAT_SECONDS),
}

# The reconciler (articles/reconcile.py) compares the database's content version and live pages with
# the state the caches last followed, and heals what a crash or an outage lost after a commit.
RECONCILE_SECONDS = env_int("RECONCILE_SECONDS", 30)
CELERY_BEAT_SCHEDULE["articles-reconcile-caches"] = {
    "task": "articles.tasks.reconcile_caches", "schedule": float(RECONCILE_SECONDS),
}

# A CDN or Varnish in front of the site is purged on publish and on new data (articles/cache_purge.py).
# HTTP PURGE (Varnish, Fastly-style): FRONTEND_CACHE_PURGE_URL=http://varnish:6081/
# Cloudflare: CLOUDFLARE_ZONE_ID and CLOUDFLARE_BEARER_TOKEN.
if env_str("FRONTEND_CACHE_PURGE_URL"):
    WAGTAILFRONTENDCACHE = {
        "http": {
            "BACKEND": "wagtail.contrib.frontend_cache.backends.HTTPBackend",
            "LOCATION": env_str("FRONTEND_CACHE_PURGE_URL"),
        }
    }
elif env_str("CLOUDFLARE_ZONE_ID"):
    WAGTAILFRONTENDCACHE = {
        "cloudflare": {
            "BACKEND": "wagtail.contrib.frontend_cache.backends.CloudflareBackend",
            "ZONEID": env_str("CLOUDFLARE_ZONE_ID"),
            "BEARER_TOKEN": env_str("CLOUDFLARE_BEARER_TOKEN", required=True),
        }
    }

REDIS_URL = env_str("REDIS_URL", None)
CACHE_URL = env_str("CACHE_URL", REDIS_URL)
if CACHE_URL:
    # Errors are caught, logged once as a warning and treated as misses (config/cache_backend.py).
    CACHES = {"default": redis_cache(CACHE_URL, env_str("CACHE_KEY_PREFIX", "llmbench"))}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}, "django_tasks": {"level": "WARNING"}},
}
