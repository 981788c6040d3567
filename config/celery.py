import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("benchmarks_cms")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Ingestion tasks live in their own package; their registered names stay "benchmarks.tasks.*" so
# queued messages and beat schedules from before the move still find them.
app.autodiscover_tasks(["benchmarks.ingest"])
