"""The approved Spanish of each translated object, segment by segment, and translators' drafts of it."""

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext_lazy as _


class TranslationMemory(models.Model):
    """The approved Spanish text of one object (a page, a provider, a source), segment by segment.

    Page revisions never carry Spanish of their own: the Spanish fields of every revision that is
    saved, previewed or published are rebuilt from this memory (editorial.spanish), so what a
    translator has not had approved can never go live with an editor's English change.
    """

    content_type = models.ForeignKey(ContentType, on_delete=models.CASCADE, verbose_name=_("content type"))
    object_id = models.PositiveBigIntegerField(_("object id"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("translation memory")
        verbose_name_plural = _("translation memories")
        constraints = [
            models.UniqueConstraint(fields=["content_type", "object_id"], name="translation_memory_one_per_object")
        ]
        permissions = [
            ("translate", _("Can write Spanish translations in the workspace")),
            ("review_translation", _("Can approve Spanish translations")),
        ]

    def __str__(self):
        return f"{self.content_type.model} {self.object_id}"


class ApprovedSegment(models.Model):
    memory = models.ForeignKey(TranslationMemory, on_delete=models.CASCADE, related_name="segments")
    key = models.CharField(_("segment"), max_length=400)
    text = models.TextField(_("Spanish text"))
    # The English this Spanish translates: when the English differs, the segment is outdated.
    source_text = models.TextField(_("English it translates"))
    # Spanish approved for English that is not live yet (an editor's unpublished draft): held here and
    # put only on a revision with that English, so it goes live with it (editorial.held).
    held_text = models.TextField(_("Spanish held for unpublished English"), blank=True)
    held_source_text = models.TextField(_("unpublished English it translates"), blank=True)
    approved_at = models.DateTimeField(_("approved"), auto_now=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = _("approved segment")
        verbose_name_plural = _("approved segments")
        constraints = [models.UniqueConstraint(fields=["memory", "key"], name="approved_segment_once")]

    def __str__(self):
        return self.key


class TranslationDraft(models.Model):
    """Spanish work in progress on one object: separate from page revisions until an editor approves it."""

    class Status(models.TextChoices):
        EDITING = "editing", _("Being translated")
        SUBMITTED = "submitted", _("Awaiting review")
        APPROVED = "approved", _("Approved")

    memory = models.ForeignKey(TranslationMemory, on_delete=models.CASCADE, related_name="drafts")
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.EDITING)
    # Bumped by every save: a form loaded at an older version may clash with someone else's edit.
    version = models.PositiveIntegerField(_("version"), default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    submitted_at = models.DateTimeField(_("submitted"), null=True, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed_at = models.DateTimeField(_("reviewed"), null=True, blank=True)
    review_comment = models.TextField(_("reviewer's comment"), blank=True)

    class Meta:
        verbose_name = _("translation draft")
        verbose_name_plural = _("translation drafts")
        constraints = [
            models.UniqueConstraint(
                fields=["memory"], condition=~models.Q(status="approved"), name="one_open_translation_draft"
            )
        ]

    def __str__(self):
        return f"{self.memory} ({self.status})"

    def authors(self):
        """Everyone who wrote text in this draft or submitted it (ids): four eyes excludes them all."""
        written = self.segments.exclude(written_by=None).values_list("written_by", flat=True)
        return {self.submitted_by_id, self.created_by_id, *written} - {None}


class DraftSegment(models.Model):
    draft = models.ForeignKey(TranslationDraft, on_delete=models.CASCADE, related_name="segments")
    key = models.CharField(_("segment"), max_length=400)
    text = models.TextField(_("Spanish text"), blank=True)
    source_text = models.TextField(_("English it translates"))
    # The approved Spanish when this segment was typed: approval shows old → new from it.
    base_text = models.TextField(_("approved Spanish it replaces"), blank=True)
    written_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("draft segment")
        verbose_name_plural = _("draft segments")
        constraints = [models.UniqueConstraint(fields=["draft", "key"], name="draft_segment_once")]

    def __str__(self):
        return self.key
