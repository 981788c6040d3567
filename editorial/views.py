"""Admin view listing the translation backlog (registered in wagtail_hooks)."""

from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin

from .status import translation_backlog

VIEW_PERMISSION = "editorial.view_translationstate"


class TranslationStatusView(WagtailAdminTemplateMixin, TemplateView):
    template_name = "editorial/translation_status.html"
    page_title = _("Translation status")
    header_icon = "doc-full"

    def dispatch(self, request, *args, **kwargs):
        if not request.user.has_perm(VIEW_PERMISSION):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_breadcrumbs_items(self):
        return self.breadcrumbs_items + [
            {"url": reverse("editorial_translation_status"), "label": self.page_title}
        ]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rows = translation_backlog(self.request.user)
        context.update(rows=rows, missing_count=sum(1 for row in rows if row.missing))
        context["outdated_count"] = len(rows) - context["missing_count"]
        return context
