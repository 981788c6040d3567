"""Per-object memory of the English and Spanish text, so the admin can tell when a translation went stale."""

from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext_lazy as _


class TranslationState(models.Model):
    """Hashes of each translated field as last saved (pages: as last published).

    ``fields`` maps a field name to ``{"en": hash, "es": hash, "es_based_on": hash}``: ``es_based_on`` is
    the English hash at the moment the Spanish value last changed, so "English changed after the Spanish
    was saved" is ``en != es_based_on`` — exact, with no clock comparison and no false alarm when an
    English edit is reverted.
    """

    content_type = models.ForeignKey(ContentType, on_delete=models.CASCADE, verbose_name=_("content type"))
    object_id = models.PositiveBigIntegerField(_("object id"))
    fields = models.JSONField(_("field hashes"), default=dict, blank=True)
    en_changed_at = models.DateTimeField(_("English last changed"), null=True, blank=True)
    es_changed_at = models.DateTimeField(_("Spanish last changed"), null=True, blank=True)

    class Meta:
        verbose_name = _("translation state")
        verbose_name_plural = _("translation states")
        constraints = [
            models.UniqueConstraint(
                fields=["content_type", "object_id"], name="translation_state_one_per_object"
            )
        ]

    def __str__(self):
        return f"{self.content_type.model} {self.object_id}"

    def outdated_fields(self, current_en_hashes):
        """Fields whose English (as hashed now) differs from the English the Spanish was based on."""
        stale = []
        for name, en_hash in current_en_hashes.items():
            entry = self.fields.get(name)
            if entry and entry.get("es_based_on") and entry["es_based_on"] != en_hash:
                stale.append(name)
        return stale
