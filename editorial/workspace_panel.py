"""Dashboard panel: translation drafts submitted for review (shown to those who may approve them)."""

from django.utils.translation import gettext_lazy as _
from wagtail.admin.ui.components import Component
from wagtail.models import Page

from .models import TranslationDraft


class TranslationsAwaitingReviewPanel(Component):
    name = "translations_awaiting_review"
    order = 90
    template_name = "editorial/panels/translations_awaiting_review.html"

    def __init__(self, request):
        self.request = request

    def get_context_data(self, parent_context=None):
        from .workspace_views import REVIEW_PERMISSION, workspace_url

        context = super().get_context_data(parent_context)
        items = []
        if self.request.user.has_perm(REVIEW_PERMISSION):
            drafts = (
                TranslationDraft.objects.filter(status=TranslationDraft.Status.SUBMITTED)
                .select_related("memory__content_type", "updated_by")
                .order_by("submitted_at")[:50]
            )
            drafts = list(drafts)
            # Each translated model's objects in one query (memories point at concrete models, so a
            # page's memory names its specific type and needs no .specific).
            wanted = {}
            for draft in drafts:
                wanted.setdefault(draft.memory.content_type.model_class(), set()).add(draft.memory.object_id)
            found = {
                model: model._default_manager.in_bulk(ids) for model, ids in wanted.items() if model is not None
            }
            for draft in drafts:
                model = draft.memory.content_type.model_class()
                obj = found.get(model, {}).get(draft.memory.object_id)
                if obj is None:
                    continue
                items.append(
                    {
                        "title": obj.title if isinstance(obj, Page) else str(obj),
                        "kind": model._meta.verbose_name,
                        "by": draft.updated_by,
                        "when": draft.submitted_at,
                        "url": workspace_url(obj, "editorial_workspace_review"),
                    }
                )
        context.update(items=items, heading=_("Translations awaiting your review"))
        return context

    def render_html(self, parent_context=None):
        if not self.request.user.has_perm("editorial.review_translation"):
            return ""
        return super().render_html(parent_context)


