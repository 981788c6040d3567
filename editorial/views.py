"""Admin view listing the translation backlog (registered in wagtail_hooks)."""

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin

from .status import EVERYTHING, MISSING, NEEDS_WORK, OUTDATED, REVIEW, UP_TO_DATE, translation_backlog
from .workspace_views import TRANSLATE_PERMISSION


class TranslationStatusView(WagtailAdminTemplateMixin, TemplateView):
    """Every page, provider and source, counted in segments, with a link to its translation workspace
    (and to the review of a submitted draft, for those who approve); first those whose Spanish needs
    work, and by filter the up-to-date ones or everything.

    Pages count as published: the English compared is each page's live content (its stored row), so
    an editor's unpublished draft changes nothing here until it is published, while the workspace
    already shows its English. A page never published counts with the content it was created with.
    Providers and sources likewise count as published.
    """

    template_name = "editorial/translation_status.html"
    page_title = _("Translation status")
    header_icon = "doc-full"
    filters = (
        (NEEDS_WORK, _("Needs work")),
        (MISSING, _("Missing")),
        (OUTDATED, _("Outdated")),
        (REVIEW, _("Awaiting review")),
        (UP_TO_DATE, _("Up to date")),
        (EVERYTHING, _("All")),
    )

    def dispatch(self, request, *args, **kwargs):
        if not request.user.has_perm(TRANSLATE_PERMISSION):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_breadcrumbs_items(self):
        return self.breadcrumbs_items + [
            {"url": reverse("editorial_translation_status"), "label": self.page_title}
        ]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rows = translation_backlog(self.request.user)
        status = self.request.GET.get("status", "")
        if status not in dict(self.filters):
            status = ""
        context.update(
            rows=[row for row in rows if row.matches(status)],
            total=len(rows),
            needing_work=sum(1 for row in rows if row.needs_work),
            status=status,
            filters=[(key, label, sum(1 for row in rows if row.matches(key))) for key, label in self.filters],
            fallback=getattr(settings, "TRANSLATION_SEGMENT_FALLBACK", True),
        )
        return context
