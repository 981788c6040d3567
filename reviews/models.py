"""What a newly published snapshot changed on the live pages, item by item, until an editor reviews it."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ChangeSet(models.Model):
    """One published snapshot compared with the one pages showed before it."""

    snapshot = models.OneToOneField(
        "benchmarks.Snapshot",
        on_delete=models.CASCADE,
        related_name="review_change_set",
        verbose_name=_("snapshot"),
    )
    previous = models.ForeignKey(
        "benchmarks.Snapshot",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("previous snapshot"),
        help_text=_(
            "The snapshot of the same source the pages showed before; empty for a source's first snapshot."
        ),
    )
    is_correction = models.BooleanField(_("correction"), default=False)
    created_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("published data change")
        verbose_name_plural = _("published data changes")

    def __str__(self):
        return str(self.snapshot)


class FigureChangeQuerySet(models.QuerySet):
    def open(self):
        return self.filter(reviewed_at__isnull=True)

    def mark_reviewed(self, user):
        return self.open().update(reviewed_at=timezone.now(), reviewed_by=user)


class FigureChange(models.Model):
    """A figure, pick or ranking on one page in one language that reads differently now."""

    class Kind(models.TextChoices):
        VALUE = "value", _("Value changed")
        PICK = "pick", _("Pick changed")
        RANKING = "ranking", _("Ranking changed")
        # Not a figure that changed: new data made the page cite a source its list lacks.
        NEW_SOURCE = "new_source", _("New source cited")
        # A checked statement whose conditions the new data no longer meets.
        STATEMENT = "statement", _("Statement no longer true")

    change_set = models.ForeignKey(
        ChangeSet, on_delete=models.CASCADE, related_name="items", verbose_name=_("change")
    )
    page = models.ForeignKey(
        "wagtailcore.Page", on_delete=models.CASCADE, related_name="+", verbose_name=_("page")
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    block_index = models.PositiveIntegerField(_("block position"))
    place = models.CharField(_("place"), max_length=300, help_text=_("The block, in the page's language."))
    figure = models.CharField(_("figure"), max_length=300)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.VALUE)
    old_text = models.TextField(_("was"))
    new_text = models.TextField(_("now"))
    mentions = models.TextField(
        _("named in"),
        blank=True,
        help_text=_("For a new ranking: the places in the page's prose that name a provider whose rank changed."),
    )
    reviewed_at = models.DateTimeField(_("reviewed at"), null=True, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("reviewed by"),
    )

    objects = FigureChangeQuerySet.as_manager()

    class Meta:
        ordering = ["change_set", "page", "language", "block_index", "pk"]
        verbose_name = _("changed figure")
        verbose_name_plural = _("changed figures")
        indexes = [models.Index(fields=["reviewed_at"], name="reviews_figurechange_open")]

    def __str__(self):
        return f"{self.page_id}/{self.language} {self.place}: {self.figure} {self.old_text} → {self.new_text}"

    @property
    def mention_list(self):
        return [line for line in self.mentions.splitlines() if line]


class TypedFigureCheck(models.Model):
    """What the typed-figure check (articles.figure_check) found in one page revision, described in
    one admin language. Written by a worker (reviews.tasks.check_typed_figures), read by the editor
    and the "Figures typed in prose" report: stored in the database so that a cache flush or outage
    does not send every article back to the worker, nor leave the report empty meanwhile."""

    revision = models.ForeignKey(
        "wagtailcore.Revision", on_delete=models.CASCADE, related_name="+", verbose_name=_("revision")
    )
    page = models.ForeignKey(
        "wagtailcore.Page", on_delete=models.CASCADE, related_name="+", verbose_name=_("page")
    )
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        help_text=_("The language the places and figures are described in (the editor's)."),
    )
    # [{"language", "place", "typed", "figures", "context"}]: the fields of a TypedFigure.
    findings = models.JSONField(_("findings"), default=list, blank=True)
    checked_at = models.DateTimeField(_("checked at"), auto_now=True)

    class Meta:
        verbose_name = _("typed-figure check")
        verbose_name_plural = _("typed-figure checks")
        constraints = [
            models.UniqueConstraint(fields=["revision", "language"], name="reviews_typedfigurecheck_once")
        ]

    def __str__(self):
        return f"{self.page_id}@{self.revision_id}/{self.language}: {len(self.findings)}"
