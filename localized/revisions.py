"""The mixin that gives every revision of a translated model only approved Spanish.

The rebuilding itself (from the object's translation memory) is editorial's: editorial.apps
registers it with `use_spanish_source` at start-up. Until then a call fails loudly: a revision
saved without it would keep whatever Spanish its form held, approved or not.
"""

from django.core.exceptions import ImproperlyConfigured

_spanish_source = None


def use_spanish_source(apply_approved_spanish):
    """Register `apply_approved_spanish(obj) -> obj`, which sets obj's Spanish fields from what was approved."""
    global _spanish_source
    _spanish_source = apply_approved_spanish


def apply_approved_spanish(obj):
    if _spanish_source is None:
        raise ImproperlyConfigured("No Spanish source registered: is `editorial` in INSTALLED_APPS?")
    return _spanish_source(obj)


class SpanishFromMemoryMixin:
    """Revisions carry only approved Spanish, rebuilt on save and whenever a revision is loaded."""

    def with_content_json(self, content):
        obj = super().with_content_json(content)
        return apply_approved_spanish(obj)

    def save_revision(self, *args, **kwargs):
        apply_approved_spanish(self)
        return super().save_revision(*args, **kwargs)

    def serve_preview(self, request, mode_name):
        # The editor's form gave this object its English only: derive the Spanish from it now, so the
        # Spanish preview has the blocks being edited (with the approved Spanish text).
        apply_approved_spanish(self)
        return super().serve_preview(request, mode_name)
