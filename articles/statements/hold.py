"""The "hold" policy: a page keeps showing the data of the last moment all its statements held.

A hold is not part of the page's revisions (a revision is what the editor wrote; a hold is what
the data did since), so it lives in its own table: the review task sets it when new data breaks a
statement of a page whose policy is "hold", and publishing the page releases it.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class StatementHold(models.Model):
    page = models.OneToOneField(
        "wagtailcore.Page", on_delete=models.CASCADE, related_name="+", verbose_name=_("page")
    )
    as_of = models.DateTimeField(_("figures as of"), help_text=_("The last moment every statement held."))
    since = models.DateTimeField(_("held since"), auto_now_add=True)

    class Meta:
        app_label = "articles"
        verbose_name = _("held page")
        verbose_name_plural = _("held pages")

    def __str__(self):
        return f"{self.page_id} as of {self.as_of:%Y-%m-%d %H:%M:%S}"


def release_on_publish(sender, instance, **kwargs):
    """An editor's publication is the act the hold waits for: the page shows current data again
    (its statements, if still false, are then marked). Runs inside the publish's transaction.

    Only a "hold" page can be held (held_as_of ignores a row left by an earlier policy), so other
    publications cost no query here."""
    if getattr(instance, "statement_policy", None) == "hold":
        StatementHold.objects.filter(page_id=instance.pk).delete()


def connect():
    from wagtail.signals import page_published

    page_published.connect(release_on_publish, dispatch_uid="statements-release-hold")
