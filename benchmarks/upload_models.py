"""A file uploaded in the admin for import, from the moment it is received until a worker has imported it.

The request only stores the file and this row, then queues the import (benchmarks/ingest/uploads.py);
the Celery task reads the file from the "uploads" storage and writes its progress here, so the request
never holds a web process for longer than the upload itself takes.
"""

from django.conf import settings
from django.core.files.storage import storages
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def uploads_storage():
    """The storage the web processes and the workers share (settings.STORAGES["uploads"])."""
    return storages["uploads"]


def upload_path(upload, filename):
    return f"{upload.kind}/{timezone.now():%Y/%m}/{filename}"


class UploadQuerySet(models.QuerySet):
    def of_kinds(self, kinds):
        return self.filter(kind__in=kinds)

    def unfinished(self):
        return self.filter(status__in=Upload.UNFINISHED)


class Upload(models.Model):
    class Kind(models.TextChoices):
        RECORDS = "records", _("Request records")
        SNAPSHOT = "snapshot", _("Snapshot")
        PRICES = "prices", _("Prices")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        CHECKING = "checking", _("Checking")
        IMPORTING = "importing", _("Importing")
        DONE = "done", _("Imported")
        FAILED = "failed", _("Failed")

    UNFINISHED = (Status.QUEUED, Status.CHECKING, Status.IMPORTING)

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    file = models.FileField(_("stored file"), storage=uploads_storage, upload_to=upload_path, max_length=300,
                            blank=True)
    name = models.CharField(_("file name"), max_length=255)
    size = models.PositiveBigIntegerField(_("size (bytes)"), default=0)
    # What the upload form said (the run, the format, the source, dates, publish), as the task needs it.
    options = models.JSONField(_("options"), default=dict, blank=True)
    target = models.CharField(_("imported into"), max_length=300, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    rows_read = models.PositiveBigIntegerField(_("rows read"), default=0)
    bytes_read = models.PositiveBigIntegerField(_("bytes read"), default=0)
    # [{"row": …, "column": …, "message": …}], in the uploader's language.
    errors = models.JSONField(_("errors"), default=list, blank=True)
    summary = models.TextField(_("result"), blank=True)
    # Imported, but a person should look: a snapshot held for review, a run that could not be aggregated.
    attention = models.BooleanField(_("needs attention"), default=False)
    snapshot = models.ForeignKey("benchmarks.Snapshot", on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+", verbose_name=_("snapshot"))
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+", verbose_name=_("uploaded by"))
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Moved on by every progress write: an import whose row stops moving has lost its worker.
    updated_at = models.DateTimeField(_("last progress"), auto_now=True)

    objects = UploadQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("upload")
        verbose_name_plural = _("uploads")
        indexes = [models.Index(fields=["kind", "-created_at"], name="upload_kind_created")]

    def __str__(self):
        return self.name

    @property
    def finished(self):
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def percent(self):
        if self.status == self.Status.DONE:
            return 100
        return min(99, round(100 * self.bytes_read / self.size)) if self.size else 0
