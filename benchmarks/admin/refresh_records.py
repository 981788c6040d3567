"""Read-only refresh run records, the upstream mapping table and unmapped rows."""

from datetime import timedelta

from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from wagtail.admin.panels import FieldPanel, FieldRowPanel, MultiFieldPanel, ObjectList
from wagtail.admin.ui.menus import MenuItem as ListingMenuItem
from wagtail.admin.ui.tables import Column, DateColumn, StatusTagColumn, TitleColumn
from wagtail.admin.views.generic import IndexView
from wagtail.admin.viewsets.model import ModelViewSet
from wagtail.permission_policies import ModelPermissionPolicy
from wagtail.permissions import register_permission_policy
from wagtail.snippets.views.snippets import CreateView as SnippetCreateView
from wagtail.snippets.views.snippets import SnippetViewSet

from ..metrics import METRICS
from ..refresh_models import RefreshRun, UnmappedUpstreamRow, UpstreamMapping

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
    return run.status in (RefreshRun.Status.CHANGED, RefreshRun.Status.HELD, RefreshRun.Status.FAILED)


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
        # Rows naming our providers or models first (Meta.ordering), then the most recently seen.
        return super().get_base_queryset().select_related("source", "provider", "model")

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
    # Every unmapped key of an upstream is kept (thousands for LiteLLM): found by its words, or by the
    # provider and model it names.
    search_fields = ["upstream_id", "upstream_name", "provider_hint", "model_hint"]
    search_backend_name = None  # plain database search over those fields
    list_filter = ["upstream", "provider", "model", "source"]
    list_per_page = 50
    list_display = [
        TitleColumn("upstream_name", label=_("Upstream name"), get_url=map_url),
        "upstream_id",
        Column("upstream", label=_("Upstream"), accessor="get_upstream_display"),
        Column("provider", label=_("Provider"), accessor="provider_label"),
        Column("model", label=_("Model"), accessor="model_label"),
        Column("reason", label=_("Why it is unmapped")),
        Column("source", label=_("Source")),
        DateColumn("last_seen", label=_("Last seen")),
        Column("times_seen", label=_("Times seen")),
    ]
    form_fields = []
