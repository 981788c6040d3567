""""Refresh now", a run's progress and outcome."""

from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from wagtail import hooks
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.admin.viewsets.base import ViewSet

from ..ingest.affected_pages import articles_showing
from ..ingest.scheduling import enqueue_refresh
from ..models import Source
from ..refresh_models import RefreshConfig, RefreshRun
from .refresh_records import URLS, RecordPolicy, can_refresh, figure_label, run_url
from .refresh_settings import refresh_now_url


# --- "Refresh now", progress and outcome ----------------------------------------------------------
class RefreshNowView(WagtailAdminTemplateMixin, TemplateView):
    template_name = "benchmarks/refresh/refresh_now.html"
    header_icon = "resubmit"
    page_title = _("Refresh now")

    def dispatch(self, request, source_id):
        if not can_refresh(request.user):
            raise PermissionDenied
        self.source = get_object_or_404(Source, pk=source_id)
        self.config = get_object_or_404(RefreshConfig, source=self.source)
        return super().dispatch(request)

    def get_page_subtitle(self):
        return str(self.source)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        running = RefreshRun.objects.filter(
            source=self.source, status__in=[RefreshRun.Status.QUEUED, RefreshRun.Status.RUNNING]
        ).first()
        context.update(
            config=self.config,
            source=self.source,
            running=running,
            run_url=run_url(running) if running else "",
        )
        return context

    def post(self, request):
        run = enqueue_refresh(self.source, user=request.user)
        return redirect(run_url(run))


class RunDetailView(WagtailAdminTemplateMixin, TemplateView):
    template_name = "benchmarks/refresh/run_detail.html"
    header_icon = "history"
    page_title = _("Refresh run")

    def dispatch(self, request, pk):
        if not RecordPolicy(RefreshRun).user_has_permission(request.user, "view"):
            raise PermissionDenied
        self.run = get_object_or_404(
            RefreshRun.objects.select_related("source", "snapshot", "requested_by"), pk=pk
        )
        return super().dispatch(request)

    def get_page_subtitle(self):
        return str(self.run.source)

    def get_breadcrumbs_items(self):
        return self.breadcrumbs_items + [
            {"url": reverse("refresh_runs:index"), "label": capfirst(RefreshRun._meta.verbose_name_plural)},
            {"url": "", "label": f"#{self.run.pk}"},
        ]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        run = self.run
        changes = [{**change, "what_label": figure_label(change["what"])} for change in run.changes]
        context.update(
            run=run,
            changes=changes,
            status_url=reverse(f"{URLS}:status", args=[run.pk]),
            articles=articles_showing({c["model"] for c in run.changes}, [run.source_id])
            if run.changes
            else [],
            refresh_now=refresh_now_url(run) if can_refresh(self.request.user) else "",
        )
        return context


def run_status(request, pk):
    """What the run page polls while a refresh is queued or running."""
    if not RecordPolicy(RefreshRun).user_has_permission(request.user, "view"):
        raise PermissionDenied
    run = get_object_or_404(RefreshRun, pk=pk)
    return JsonResponse(
        {
            "id": run.pk,
            "status": run.status,
            "status_label": str(run.get_status_display()),
            "finished": run.is_finished,
            "progress": run.progress,
            "heartbeat_at": run.heartbeat_at.isoformat() if run.heartbeat_at else None,
            "rows_read": run.rows_read,
            "rows_changed": run.rows_changed,
            "unmapped_rows": run.unmapped_rows,
            "error": run.error,
            "notes": run.notes,
            "snapshot": run.snapshot_id,
            "published": run.published,
        }
    )


class RefreshActionsViewSet(ViewSet):
    name = URLS
    url_prefix = "benchmarks/refresh"

    def get_urlpatterns(self):
        return [
            path("now/<int:source_id>/", RefreshNowView.as_view(), name="now"),
            path("run/<int:pk>/", RunDetailView.as_view(), name="run"),
            path("run/<int:pk>/status/", run_status, name="status"),
        ]


@hooks.register("register_admin_viewset")
def register_refresh_actions():
    return RefreshActionsViewSet()
