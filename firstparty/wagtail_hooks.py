"""Admin: probe settings (with key and budget status), series, runs (start, upload, progress), provenance."""

from django.urls import path, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from wagtail import hooks
from wagtail.admin.panels import FieldPanel, FieldRowPanel, MultiFieldPanel, ObjectList
from wagtail.admin.ui.menus import MenuItem as ListingMenuItem
from wagtail.admin.ui.tables import BooleanColumn, Column
from wagtail.admin.viewsets.base import ViewSet
from wagtail.admin.viewsets.model import ModelViewSet
from wagtail.snippets.models import register_snippet
from wagtail.snippets.views.snippets import IndexView, SnippetViewSetGroup

from benchmarks.models import Snapshot, Source

from . import admin_views
from .admin_views import URLS
from .endpoint_picker import EndpointPicker, picker_queryset
from .models import ProbeConfig, Run, Series
from .run_edit import RunEditView
from .scheduling import api_key


def key_status(config):
    if api_key(config):
        return gettext("%(name)s is set") % {"name": config.api_key_env}
    return gettext("%(name)s is not set on this server: no request will be sent") % {"name": config.api_key_env}


def budget_status(config):
    used = config.requests_today()
    if used >= config.daily_budget:
        return gettext("Budget reached (%(used)s of %(budget)s today): probing stopped until tomorrow") % {
            "used": used, "budget": config.daily_budget}
    return gettext("%(used)s of %(budget)s requests today") % {"used": used, "budget": config.daily_budget}


class ProbeConfigViewSet(ModelViewSet):
    model = ProbeConfig
    icon = "pick"
    menu_label = _("Probe settings")
    name = "probe_settings"
    url_prefix = "firstparty/probes"
    copy_view_enabled = False
    list_filter = ["enabled"]
    list_display = [
        "endpoint",
        BooleanColumn("enabled", label=_("Scheduled")),
        Column("cadence_minutes", label=_("Every (min)")),
        Column("budget", label=_("Today"), accessor=budget_status),
        Column("key", label=_("API key"), accessor=key_status),
        Column("last_error", label=_("Last error")),
    ]
    edit_handler = ObjectList([
        FieldPanel("endpoint"),
        MultiFieldPanel([
            FieldPanel("base_url"), FieldRowPanel([FieldPanel("api_model_id"), FieldPanel("api_key_env")]),
        ], heading=_("Provider API")),
        MultiFieldPanel([
            FieldRowPanel([FieldPanel("enabled"), FieldPanel("cadence_minutes"), FieldPanel("daily_budget")]),
            FieldPanel("series"),
        ], heading=_("Schedule and budget")),
        MultiFieldPanel([
            FieldPanel("messages"), FieldPanel("json_mode"),
            FieldRowPanel([FieldPanel("max_tokens"), FieldPanel("temperature"), FieldPanel("top_p")]),
            FieldRowPanel([FieldPanel("reasoning_effort"), FieldPanel("timeout_seconds"), FieldPanel("concurrency")]),
            FieldPanel("expected_answer"),
        ], heading=_("Request template")),
    ])

    def get_queryset(self, request):
        return ProbeConfig.objects.select_related("endpoint__provider", "endpoint__model")


class SeriesViewSet(ModelViewSet):
    model = Series
    icon = "time"
    menu_label = _("Probe series")
    name = "probe_series"
    url_prefix = "firstparty/series"
    copy_view_enabled = False
    list_display = ["name", "source", "window_hours", "period_minutes", "region", "aggregated_until"]
    form_fields = ["name", "source", "window_hours", "period_minutes", "region", "publish"]


def run_progress_text(run):
    done, expected = run.progress()
    return str(done) if expected is None else f"{done} / {expected}"


class RunIndexView(IndexView):
    def get_list_more_buttons(self, instance):
        buttons = list(super().get_list_more_buttons(instance))
        user = self.request.user
        if admin_views.can_run(user):
            if instance.status == Run.Status.DRAFT:
                buttons.insert(0, ListingMenuItem(_("Start run"), url=reverse(f"{URLS}:start", args=[instance.pk]),
                                                  icon_name="pick", priority=5))
            if not instance.snapshot_id:
                buttons.insert(0, ListingMenuItem(_("Upload records"), icon_name="upload", priority=6,
                                                  url=reverse(f"{URLS}:upload", args=[instance.pk])))
        buttons.insert(0, ListingMenuItem(_("Progress"), url=reverse(f"{URLS}:progress", args=[instance.pk]),
                                          icon_name="time", priority=4))
        return buttons


class RunViewSet(ModelViewSet):
    model = Run
    icon = "list-ol"
    menu_label = _("Measurement runs")
    name = "measurement_runs"
    url_prefix = "firstparty/runs"
    index_view_class = RunIndexView
    edit_view_class = RunEditView
    copy_view_enabled = False
    list_filter = ["status"]
    list_display = [
        "name", Column("status", label=_("Status"), accessor="get_status_display"),
        Column("progress", label=_("Requests recorded"), accessor=run_progress_text), "snapshot",
    ]
    form_fields = ["name", "source", "endpoints", "requests_per_endpoint", "workload", "effort", "tokenizer",
                   "measured_at"]

    def formfield_for_dbfield(self, db_field, **kwargs):
        # A run's figures are our own measurements: only a first-party source may carry them.
        if db_field.name == "source":
            kwargs["queryset"] = Source.objects.filter(kind=Source.Kind.FIRST_PARTY)
        elif db_field.name == "endpoints":
            kwargs.update(queryset=picker_queryset(), widget=EndpointPicker)
        return super().formfield_for_dbfield(db_field, **kwargs)


class FirstPartyGroup(SnippetViewSetGroup):
    menu_label = _("First-party measurement")
    menu_name = "first-party"
    menu_icon = "pick"
    menu_order = 220
    items = (ProbeConfigViewSet, SeriesViewSet, RunViewSet)


register_snippet(FirstPartyGroup)


class FirstPartyActions(ViewSet):
    name = URLS
    url_prefix = "firstparty"

    def get_urlpatterns(self):
        return [
            path("runs/<int:pk>/start/", admin_views.StartRunView.as_view(), name="start"),
            path("runs/<int:pk>/progress/", admin_views.RunProgressView.as_view(), name="progress"),
            path("runs/<int:pk>/upload/", admin_views.UploadRecordsView.as_view(), name="upload"),
            path("snapshots/<int:pk>/records/", admin_views.ProvenanceView.as_view(), name="provenance"),
            path("snapshots/<int:snapshot_id>/records.csv", admin_views.records_csv, name="records_csv"),
        ]


@hooks.register("register_admin_viewset")
def register_firstparty_actions():
    return FirstPartyActions()


@hooks.register("register_snippet_listing_buttons")
def snapshot_records_button(snippet, user, next_url=None):
    """On a first-party snapshot, a way down to the request records behind its figures."""
    # The source is already loaded for the row's title, so this adds no query per row.
    if isinstance(snippet, Snapshot) and snippet.source.kind == "first_party":
        yield ListingMenuItem(_("Request records"), url=reverse(f"{URLS}:provenance", args=[snippet.pk]),
                              icon_name="list-ul", priority=30)


