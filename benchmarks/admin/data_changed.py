"""Dashboard panel: data that changed recently and the articles that show it."""

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from wagtail import hooks
from wagtail.admin.ui.components import Component

from ..ingest.affected_pages import articles_showing, load_references
from ..refresh_models import RefreshRun
from .refresh_records import (
    PANEL_CHANGES_PER_RUN,
    PANEL_RUNS,
    RECENT_CHANGES,
    RecordPolicy,
    figure_label,
    run_url,
)


# --- dashboard: "Data changed" ------------------------------------------------------------------
class DataChangedPanel(Component):
    name = "data_changed"
    template_name = "benchmarks/refresh/dashboard_panel.html"
    order = 90

    def get_context_data(self, parent_context):
        context = super().get_context_data(parent_context)
        since = timezone.now() - RECENT_CHANGES
        runs = list(
            # Held runs too: their drafts wait for an editor to check the reasons and publish them.
            RefreshRun.objects.filter(
                status__in=[RefreshRun.Status.CHANGED, RefreshRun.Status.HELD], finished__gte=since
            )
            .select_related("source", "snapshot")
            .order_by("-finished", "-pk")[:PANEL_RUNS]
        )
        references = load_references() if runs else []
        items = []
        for run in runs:
            changes = [{**change, "what_label": figure_label(change["what"])} for change in run.changes]
            items.append(
                {
                    "run": run,
                    "url": run_url(run),
                    "changes": changes[:PANEL_CHANGES_PER_RUN],
                    "more": max(0, len(changes) - PANEL_CHANGES_PER_RUN),
                    "articles": articles_showing({c["model"] for c in changes}, [run.source_id], references),
                }
            )
        failed = RefreshRun.objects.filter(
            status=RefreshRun.Status.FAILED, finished__gte=timezone.now() - timedelta(days=1)
        )
        context.update(
            items=items,
            failed_count=failed.count(),
            runs_url=reverse("refresh_runs:index"),
            failed_url=reverse("refresh_runs:index") + "?" + urlencode({"status": RefreshRun.Status.FAILED}),
        )
        return context


@hooks.register("construct_homepage_panels")
def add_data_changed_panel(request, panels):
    if RecordPolicy(RefreshRun).user_has_permission(request.user, "view"):
        panels.append(DataChangedPanel())
