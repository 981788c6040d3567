"""Admin actions on runs (start, upload records) and the provenance of a snapshot down to its records."""

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Max, Min
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.generic import FormView, TemplateView
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin

from benchmarks.admin.uploads import progress_url
from benchmarks.csv_export import csv_lines
from benchmarks.ingest.uploads import receive
from benchmarks.models import Endpoint, Snapshot, Upload

from .importers import RecordImportError, check_name
from .models import RequestRecord, Run
from .runner_formats import FORMATS
from .scheduling import resume_run, start_run

URLS = "firstparty_actions"
CSV_COLUMNS = ("provider", "model", "tier", "started_at", "region", "outcome", "http_status", "ttft_s", "e2e_s",
               "output_tokens", "token_count", "tokens_per_second", "error")


def can_run(user):
    return user.has_perm("firstparty.change_run")


def records_of_snapshot(snapshot):
    """The records behind a snapshot: its run's, or its series window's."""
    run = Run.objects.filter(snapshot=snapshot).first()
    if run:
        return RequestRecord.objects.filter(run=run), run
    period = getattr(snapshot, "series_period", None)
    if period is None:
        return RequestRecord.objects.none(), None
    qs = RequestRecord.objects.filter(series=period.series, started_at__gte=period.window_start,
                                      started_at__lt=period.window_end)
    if period.series.region:
        qs = qs.filter(region=period.series.region)
    return qs, period.series


def queue_batches(view, action, success_message):
    """Run `action` (start or resume; it refuses with a ValidationError), then queue one batch per endpoint
    on the probes queue and go to the progress page."""
    from .tasks import run_endpoint_batch

    try:
        endpoint_ids = action(view.run)
    except ValidationError as error:
        view.errors = error.messages
        return view.render_to_response(view.get_context_data())
    for endpoint_id in endpoint_ids:
        run_endpoint_batch.apply_async(args=[view.run.pk, endpoint_id])
    messages.success(view.request, success_message(len(endpoint_ids)))
    return redirect(reverse(f"{URLS}:progress", args=[view.run.pk]))


class ObjectAdminView(WagtailAdminTemplateMixin):
    """An admin page about one run or snapshot: who may open it, which object, its name as subtitle."""

    viewers_allowed = False  # True: people who may only view runs can open it too
    queryset = None
    object_name = "run"

    def dispatch(self, request, pk):
        if not can_run(request.user) and not (self.viewers_allowed and request.user.has_perm("firstparty.view_run")):
            raise PermissionDenied
        setattr(self, self.object_name, get_object_or_404(self.queryset, pk=pk))
        return super().dispatch(request)

    def get_page_subtitle(self):
        return str(getattr(self, self.object_name))


class StartRunView(ObjectAdminView, TemplateView):
    template_name = "firstparty/start_run.html"
    header_icon = "pick"
    page_title = _("Start run")
    queryset = Run.objects.all()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(run=self.run, endpoints=list(self.run.endpoints.select_related("provider", "model")),
                       errors=getattr(self, "errors", []))
        return context

    def post(self, request):
        return queue_batches(self, start_run, lambda count: gettext(
            "Run “%(run)s” started: %(count)s endpoints queued on the probes queue.") % {"run": self.run, "count": count})


class RunProgressView(ObjectAdminView, TemplateView):
    template_name = "firstparty/run_progress.html"
    header_icon = "time"
    page_title = _("Run progress")
    viewers_allowed = True
    queryset = Run.objects.select_related("snapshot")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        done, expected = self.run.progress()  # expected is None for a run fed by runners' files
        context.update(run=self.run, done=done, expected=expected,
                       percent=round(100 * done / expected) if expected else None,
                       per_endpoint=self.run.records_per_endpoint(),
                       provenance=reverse(f"{URLS}:provenance", args=[self.run.snapshot_id])
                       if self.run.snapshot_id else "",
                       refresh_seconds=self.refresh_seconds if self.run.status == Run.Status.RUNNING else 0,
                       can_resume=self.run.status == Run.Status.STOPPED and can_run(self.request.user),
                       errors=getattr(self, "errors", []))
        return context

    refresh_seconds = 5

    def post(self, request):
        """Resume a stopped run: the same frozen settings, each endpoint's batch goes on where it stopped."""
        if not can_run(request.user):
            raise PermissionDenied
        return queue_batches(self, resume_run, lambda count: gettext("Run “%(run)s” resumed.") % {"run": self.run})


class UploadForm(forms.Form):
    file = forms.FileField(label=_("Records file (.jsonl, .csv or a runner's .json)"))
    format = forms.ChoiceField(label=_("Format"), required=False,
                               choices=[("", _("Detect from the file"))] + [(k, v[1]) for k, v in FORMATS.items()])
    endpoint = forms.ModelChoiceField(
        label=_("Endpoint measured"), required=False,
        queryset=Endpoint.objects.select_related("provider", "model").order_by("provider__name", "model__name", "tier"),
        help_text=_("Needed for a runner's own export (aiperf, GenAI-Perf, LLMPerf, vLLM, GuideLLM): its rows name "
                    "no endpoint of ours."))
    started_at = forms.DateTimeField(
        label=_("Benchmark start"), required=False,
        help_text=_("For files without request times (LLMPerf, vLLM): every record gets this time."))
    benchmark = forms.IntegerField(label=_("Benchmark number"), required=False, min_value=0,
                                   help_text=_("Which benchmark of a report holding several, from 0."))
    aggregate = forms.BooleanField(label=_("Aggregate the run into its snapshot afterwards"), required=False)

    def clean_file(self):
        upload = self.cleaned_data["file"]
        limit = settings.RECORDS_UPLOAD_MAX_BYTES
        if upload.size > limit:
            raise ValidationError(gettext("The file is larger than %(mb)s MB; import it with manage.py import_requests.")
                                  % {"mb": limit // (1024 * 1024)})
        try:
            check_name(upload.name)
        except RecordImportError as rejected:
            raise ValidationError(rejected.errors) from None
        return upload

    def import_options(self):
        """What the worker's import needs besides the file, as JSON (Upload.options)."""
        data, endpoint = self.cleaned_data, self.cleaned_data.get("endpoint")
        return {"format": data.get("format") or "", "benchmark": data.get("benchmark"),
                "endpoint": [endpoint.provider.slug, endpoint.model.slug, endpoint.tier] if endpoint else None,
                "started_at": data["started_at"].isoformat() if data.get("started_at") else None}


class UploadRecordsView(ObjectAdminView, FormView):
    """The file is stored and queued; a Celery task checks and imports it (firstparty/uploads.py) and the
    request goes on to the upload's progress page, however large the file."""

    template_name = "firstparty/upload.html"
    header_icon = "upload"
    page_title = _("Upload request records")
    form_class = UploadForm
    queryset = Run.objects.all()

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "run": self.run, "errors": getattr(self, "errors", []),
                "limit": settings.RECORDS_UPLOAD_MAX_BYTES}

    def form_valid(self, form):
        from .tasks import import_records_upload

        if self.run.snapshot_id:
            self.errors = [gettext("Run “%(run)s” is already aggregated; import into a new run.") % {"run": self.run}]
            return self.form_invalid(form)
        upload = receive(self.request, Upload.Kind.RECORDS, form.cleaned_data["file"], import_records_upload,
                         {"run": self.run.pk, "aggregate": form.cleaned_data["aggregate"], **form.import_options()}, target=self.run)
        return redirect(progress_url(upload))


class ProvenanceView(ObjectAdminView, TemplateView):
    """Snapshot → records: how many, over which span, with which outcomes, and a CSV of them."""

    template_name = "firstparty/provenance.html"
    header_icon = "list-ul"
    page_title = _("Request records behind a snapshot")
    viewers_allowed = True
    queryset = Snapshot.objects.select_related("source")
    object_name = "snapshot"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        records, origin = records_of_snapshot(self.snapshot)
        summary = records.aggregate(count=Count("pk"), first=Min("started_at"), last=Max("started_at"))
        outcomes = records.values("outcome").annotate(count=Count("pk")).order_by("outcome")
        labels = dict(RequestRecord.Outcome.choices)
        context.update(
            snapshot=self.snapshot, origin=origin, summary=summary,
            outcomes=[(labels.get(o["outcome"], o["outcome"]), o["count"]) for o in outcomes],
            csv_url=reverse(f"{URLS}:records_csv", args=[self.snapshot.pk]),
        )
        return context


def records_csv(request, snapshot_id):
    if not request.user.has_perm("firstparty.view_run") and not can_run(request.user):
        raise PermissionDenied
    snapshot = get_object_or_404(Snapshot, pk=snapshot_id)
    records, _origin = records_of_snapshot(snapshot)
    rows = records.order_by("started_at", "pk").values_list(
        "endpoint__provider__slug", "endpoint__model__slug", "endpoint__tier", "started_at", "region", "outcome",
        "http_status", "ttft_s", "e2e_s", "output_tokens", "token_count", "tokens_per_second", "error",
    )

    # Region and error texts come from runners' files and providers' responses: the writer escapes formulas.
    response = StreamingHttpResponse(csv_lines(CSV_COLUMNS, rows.iterator(chunk_size=5000)),
                                     content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="snapshot-{snapshot.pk}-records.csv"'
    return response
