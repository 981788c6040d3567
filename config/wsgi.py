import os

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

from config.startup import require_database

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

try:
    application = get_wsgi_application()
except ImproperlyConfigured as exc:
    raise SystemExit(f"Cannot start: configuration error: {exc}") from None
require_database()
