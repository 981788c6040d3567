from django.db import models
from django.utils.translation import gettext_lazy as _


class WorkerHeartbeat(models.Model):
    """Written by the periodic heartbeat task so editors can see that the worker runs."""

    worker = models.CharField(_("worker"), max_length=200)
    beat_at = models.DateTimeField(_("beat at"), auto_now_add=True)

    class Meta:
        ordering = ["-beat_at"]
        verbose_name = _("worker heartbeat")

    def __str__(self):
        return f"{self.worker} @ {self.beat_at:%Y-%m-%d %H:%M}"
