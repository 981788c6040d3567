"""Zero-setup development: SQLite, tasks run in-process, nothing else to start."""

from .base import *  # noqa: F401,F403
from .env import env_bool, env_str

DEBUG = env_bool("DEBUG", True)
ALLOWED_HOSTS = ["*"]
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", env_str("CELERY_BROKER_URL") is None)
CELERY_TASK_EAGER_PROPAGATES = True
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
