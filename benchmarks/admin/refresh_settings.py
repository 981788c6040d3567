"""Per-source refresh settings with "Refresh now", grouped in the "Refresh" menu."""

from datetime import datetime

from django.db.models import OuterRef, Subquery
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from wagtail.admin.panels import FieldPanel, FieldRowPanel, MultiFieldPanel, ObjectList
from wagtail.admin.ui.menus import MenuItem as ListingMenuItem
from wagtail.admin.ui.tables import BooleanColumn, Column
from wagtail.admin.views.generic import IndexView
from wagtail.admin.viewsets.model import ModelViewSet
from wagtail.snippets.models import register_snippet
from wagtail.snippets.views.snippets import SnippetViewSetGroup

from ..refresh_models import RefreshConfig, RefreshRun
from .refresh_records import URLS, RefreshRunViewSet, UnmappedRowViewSet, UpstreamMappingViewSet, can_refresh
from .refresh_replay import replay_url


# --- per-source settings with "Refresh now" -------------------------------------------------------
def refresh_now_url(config):
    return reverse(f"{URLS}:now", args=[config.source_id])


def schedule_text(config):
    if not config.enabled:
        return gettext("off (Refresh now only)")
    return gettext("every %(minutes)s min") % {"minutes": config.interval_minutes}


def budget_text(config):
    """The upstream's request budget as its last answer stated it, and when the schedule resumes."""
    budget = config.rate_limit or {}
    if budget.get("remaining") is None:
        return gettext("not reported")
    parts = [
        gettext("%(remaining)s of %(limit)s requests left")
        % {"remaining": budget["remaining"], "limit": budget.get("limit") or "?"}
    ]
    if budget.get("reset"):
        reset = timezone.localtime(datetime.fromisoformat(budget["reset"]))
        parts.append(gettext("resets %(time)s") % {"time": f"{reset:%Y-%m-%d %H:%M}"})
    if config.next_attempt_after and config.next_attempt_after > timezone.now():
        parts.append(
            gettext("next attempt after %(time)s")
            % {"time": f"{timezone.localtime(config.next_attempt_after):%Y-%m-%d %H:%M}"}
        )
    return " · ".join(parts)


def licence_text(config):
    return "" if config.source.licence_allows_publication else gettext("Licence does not allow publication")


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
            buttons.insert(
                1,
                ListingMenuItem(_("Replay from file"), url=replay_url(instance), icon_name="upload", priority=6),
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
        Column("budget", label=_("Request budget"), accessor=budget_text),
        Column("licence", label=_("Licence"), accessor=licence_text),
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
