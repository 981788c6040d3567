"""Refresh runs, upstream mapping and "Refresh now" admin views (registered via wagtail_hooks)."""

from datetime import timedelta

from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from wagtail import hooks
from wagtail.admin.panels import FieldPanel, FieldRowPanel, MultiFieldPanel, ObjectList
from wagtail.admin.ui.components import Component
from wagtail.admin.ui.menus import MenuItem as ListingMenuItem
from wagtail.admin.ui.tables import BooleanColumn, Column, DateColumn, StatusTagColumn, TitleColumn
from wagtail.admin.views.generic import IndexView
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.admin.viewsets.base import ViewSet
from wagtail.admin.viewsets.model import ModelViewSet
from wagtail.permission_policies import ModelPermissionPolicy
from wagtail.permissions import register_permission_policy
from wagtail.snippets.models import register_snippet
from wagtail.snippets.views.snippets import CreateView as SnippetCreateView
from wagtail.snippets.views.snippets import SnippetViewSet, SnippetViewSetGroup

from .metrics import METRICS
from .models import Source
from .refresh import enqueue_refresh
from .refresh_articles import articles_showing, load_references
from .refresh_models import RefreshConfig, RefreshRun, UnmappedUpstreamRow, UpstreamMapping

URLS = "benchmarks_refresh"
RECENT_CHANGES = timedelta(days=7)
PANEL_RUNS = 8
PANEL_CHANGES_PER_RUN = 6


def can_refresh(user):
    return user.has_perm("benchmarks.change_refreshconfig")


def figure_label(what):
    return (
        gettext("Price in / out per 1M")
        if what == "price"
        else (METRICS[what].label if what in METRICS else what)
    )


# --- read-only records ----------------------------------------------------------------------------
class RecordPolicy(ModelPermissionPolicy):
    """Runs and unmapped rows are written by refreshes only: editors may look, never edit."""

    def user_has_permission(self, user, action):
        if action in ("add", "change", "delete"):
            return False
        return super().user_has_permission(user, action)

    def user_has_any_permission(self, user, actions):
        return any(self.user_has_permission(user, action) for action in actions)


register_permission_policy(RefreshRun, RecordPolicy(RefreshRun))
register_permission_policy(UnmappedUpstreamRow, RecordPolicy(UnmappedUpstreamRow))


def run_url(run):
    return reverse(f"{URLS}:run", args=[run.pk])


class RunIndexView(IndexView):
    def get_base_queryset(self):
        return super().get_base_queryset().select_related("source", "snapshot")

    def get_edit_url(self, instance):
        return run_url(instance)

    def get_list_more_buttons(self, instance):
        return [ListingMenuItem(_("Details"), url=run_url(instance), icon_name="info-circle", priority=10)]


def status_primary(run):
    return run.status in (RefreshRun.Status.CHANGED, RefreshRun.Status.FAILED)


class RefreshRunViewSet(ModelViewSet):
    model = RefreshRun
    icon = "history"
    menu_label = _("Refresh runs")
    name = "refresh_runs"
    url_prefix = "benchmarks/refresh/runs"
    index_view_class = RunIndexView
    copy_view_enabled = False
    add_to_reference_index = False
    list_filter = ["source", "status", "adapter", "trigger"]
    list_per_page = 50
    ordering = ["-queued_at", "-pk"]
    list_display = [
        TitleColumn("source", label=_("Source"), get_url=run_url),
        StatusTagColumn("status", label=_("Status"), accessor="get_status_display", primary=status_primary),
        DateColumn("started", label=_("Started")),
        DateColumn("finished", label=_("Finished")),
        Column("rows_read", label=_("Rows read")),
        Column("rows_changed", label=_("Figures changed")),
        Column("unmapped_rows", label=_("Unmapped")),
        Column("outcome", label=_("Outcome")),
    ]
    form_fields = []


# --- the mapping table ----------------------------------------------------------------------------
class MappingCreateView(SnippetCreateView):
    """Opened from an unmapped row: the upstream, identifier and name arrive pre-filled."""

    def get_initial_form_instance(self):
        instance = super().get_initial_form_instance() or self.model()
        for field in ("upstream", "upstream_id", "upstream_name"):
            if self.request.GET.get(field):
                setattr(instance, field, self.request.GET[field][:300])
        return instance


class UpstreamMappingViewSet(SnippetViewSet):
    model = UpstreamMapping
    icon = "link"
    menu_label = _("Upstream mapping")
    add_view_class = MappingCreateView
    search_fields = ["upstream_id", "upstream_name", "note"]
    list_filter = ["upstream", "ignored"]
    list_display = [
        "upstream_name",
        "upstream_id",
        Column("upstream", label=_("Upstream"), accessor="get_upstream_display"),
        Column("target", label=_("Maps to"), accessor="target_label"),
    ]
    ordering = ["upstream", "upstream_id"]
    edit_handler = ObjectList(
        [
            FieldRowPanel([FieldPanel("upstream"), FieldPanel("upstream_id")]),
            FieldPanel("upstream_name"),
            MultiFieldPanel(
                [
                    FieldPanel("endpoint"),
                    FieldRowPanel([FieldPanel("provider"), FieldPanel("model")]),
                    FieldPanel("ignored"),
                ],
                heading=_("Maps to"),
                help_text=_(
                    "An endpoint for a per-provider row; a provider and a model for a model-level row."
                ),
            ),
            FieldPanel("note"),
        ]
    )

    def get_queryset(self, request):
        return UpstreamMapping.objects.select_related(
            "endpoint__provider", "endpoint__model", "provider", "model"
        )


class UnmappedIndexView(IndexView):
    def get_base_queryset(self):
        return super().get_base_queryset().select_related("source")

    def get_edit_url(self, instance):
        return map_url(instance)

    def get_list_more_buttons(self, instance):
        return [ListingMenuItem(_("Map this row"), url=map_url(instance), icon_name="link", priority=10)]


def map_url(row):
    query = urlencode(
        {"upstream": row.upstream, "upstream_id": row.upstream_id, "upstream_name": row.upstream_name}
    )
    return f"{reverse(UpstreamMapping.snippet_viewset.get_url_name('add'))}?{query}"


class UnmappedRowViewSet(ModelViewSet):
    model = UnmappedUpstreamRow
    icon = "warning"
    menu_label = _("Unmapped upstream rows")
    name = "refresh_unmapped"
    url_prefix = "benchmarks/refresh/unmapped"
    index_view_class = UnmappedIndexView
    copy_view_enabled = False
    add_to_reference_index = False
    search_fields = ["upstream_id", "upstream_name"]
    list_filter = ["upstream", "source"]
    list_display = [
        TitleColumn("upstream_name", label=_("Upstream name"), get_url=map_url),
        "upstream_id",
        Column("upstream", label=_("Upstream"), accessor="get_upstream_display"),
        Column("reason", label=_("Why it is unmapped")),
        Column("source", label=_("Source")),
        DateColumn("last_seen", label=_("Last seen")),
        Column("times_seen", label=_("Times seen")),
    ]
    form_fields = []


# --- per-source settings with "Refresh now" -------------------------------------------------------
def refresh_now_url(config):
    return reverse(f"{URLS}:now", args=[config.source_id])


def schedule_text(config):
    if not config.enabled:
        return gettext("off (Refresh now only)")
    return gettext("every %(minutes)s min") % {"minutes": config.interval_minutes}


def last_run_text(config):
    if not config.last_status:
        return gettext("never run")
    return f"{RefreshRun.Status(config.last_status).label} · {timezone.localtime(config.last_queued):%Y-%m-%d %H:%M}"


class ConfigIndexView(IndexView):
    def get_base_queryset(self):
        runs = RefreshRun.objects.filter(source=OuterRef("source_id")).order_by("-queued_at", "-pk")
        return (
            super()
            .get_base_queryset()
            .select_related("source")
            .annotate(
                last_status=Subquery(runs.values("status")[:1]),
                last_queued=Subquery(runs.values("queued_at")[:1]),
            )
        )

    def get_list_more_buttons(self, instance):
        buttons = super().get_list_more_buttons(instance)
        if can_refresh(self.request.user):
            buttons.insert(
                0,
                ListingMenuItem(
                    _("Refresh now"), url=refresh_now_url(instance), icon_name="resubmit", priority=5
                ),
            )
        return buttons


class RefreshConfigViewSet(ModelViewSet):
    model = RefreshConfig
    icon = "resubmit"
    menu_label = _("Refresh settings")
    name = "refresh_settings"
    url_prefix = "benchmarks/refresh/settings"
    index_view_class = ConfigIndexView
    copy_view_enabled = False
    list_filter = ["adapter", "enabled"]
    list_display = [
        "source",
        Column("adapter", label=_("Adapter"), accessor="get_adapter_display"),
        Column("schedule", label=_("Scheduled"), accessor=schedule_text),
        BooleanColumn("auto_publish", label=_("Publishes automatically"), accessor="source.auto_publish"),
        Column("last_run", label=_("Last run"), accessor=last_run_text),
    ]
    edit_handler = ObjectList(
        [
            FieldRowPanel([FieldPanel("source"), FieldPanel("adapter")]),
            FieldPanel("params"),
            MultiFieldPanel(
                [FieldRowPanel([FieldPanel("enabled"), FieldPanel("interval_minutes")])],
                heading=_("Schedule"),
                help_text=_(
                    "Celery beat wakes the refresh of each upstream every few minutes (settings: "
                    "REFRESH_*_CHECK_MINUTES); this source is refreshed once its own interval has passed. "
                    "Whether a new snapshot publishes itself is the source's “publish refreshed data automatically”."
                ),
            ),
            FieldPanel("max_price_jump_factor"),
            FieldRowPanel([FieldPanel("workload"), FieldPanel("effort")]),
        ]
    )


class RefreshGroup(SnippetViewSetGroup):
    menu_label = _("Data refresh")
    menu_name = "data-refresh"
    menu_icon = "resubmit"
    menu_order = 210
    items = (RefreshConfigViewSet, RefreshRunViewSet, UpstreamMappingViewSet, UnmappedRowViewSet)


register_snippet(RefreshGroup)


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


# --- dashboard: "Data changed" ------------------------------------------------------------------
class DataChangedPanel(Component):
    name = "data_changed"
    template_name = "benchmarks/refresh/dashboard_panel.html"
    order = 90

    def get_context_data(self, parent_context):
        context = super().get_context_data(parent_context)
        since = timezone.now() - RECENT_CHANGES
        runs = list(
            RefreshRun.objects.filter(status=RefreshRun.Status.CHANGED, finished__gte=since)
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
