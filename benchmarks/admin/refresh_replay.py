""""Replay from file": upload saved upstream answers for one source and run the whole refresh from them
(benchmarks/ingest/replays.py); the run page follows it like any refresh."""

from django import forms
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.defaultfilters import filesizeformat
from django.urls import path, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.generic import FormView
from wagtail import hooks
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.admin.viewsets.base import ViewSet

from ..ingest.replays import enqueue_replay
from ..models import Source
from ..refresh_models import RefreshConfig
from .refresh_records import can_refresh, run_url

URLS = "benchmarks_refresh_replay"
MAX_FILES = 50


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field (Django's documented pattern)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".json,.gz,application/json"}))
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        files = [single(item, initial) for item in data] if isinstance(data, (list, tuple)) else [single(data, initial)]
        return [file for file in files if file]


class ReplayForm(forms.Form):
    files = MultipleFileField(
        label=_("Saved upstream answers"),
        help_text=_(
            "One file per request, replayed in the order of their names (page1.json, page2.json, …), or "
            "one file holding {\"pages\": [...]} as a snapshot keeps them; .gz files are read decompressed."
        ),
    )

    def clean_files(self):
        files = self.cleaned_data["files"]
        if len(files) > MAX_FILES:
            raise forms.ValidationError(gettext("At most %(count)s files at once.") % {"count": MAX_FILES})
        cap = settings.REFRESH_MAX_BODY_BYTES
        too_large = [file.name for file in files if file.size > cap]
        if too_large:
            raise forms.ValidationError(
                gettext("Larger than the %(size)s a refresh reads: %(files)s.")
                % {"size": filesizeformat(cap), "files": ", ".join(too_large)}
            )
        return files


class ReplayView(WagtailAdminTemplateMixin, FormView):
    template_name = "benchmarks/refresh/replay.html"
    form_class = ReplayForm
    header_icon = "upload"
    page_title = _("Replay from file")

    def dispatch(self, request, source_id):
        if not can_refresh(request.user):
            raise PermissionDenied
        self.source = get_object_or_404(Source, pk=source_id)
        self.config = get_object_or_404(RefreshConfig, source=self.source)
        return super().dispatch(request)

    def get_page_subtitle(self):
        return str(self.source)

    def get_context_data(self, **kwargs):
        return super().get_context_data(config=self.config, source=self.source, **kwargs)

    def form_valid(self, form):
        run = enqueue_replay(self.source, form.cleaned_data["files"], user=self.request.user)
        return redirect(run_url(run))


def replay_url(config):
    return reverse(f"{URLS}:replay", args=[config.source_id])


class ReplayViewSet(ViewSet):
    name = URLS
    url_prefix = "benchmarks/refresh/replay"

    def get_urlpatterns(self):
        return [path("<int:source_id>/", ReplayView.as_view(), name="replay")]


@hooks.register("register_admin_viewset")
def register_replay():
    return ReplayViewSet()
