"""Upload pages for snapshot and price files: the file is stored and queued, a Celery task imports it with
the same importers as the commands (benchmarks/ingest/uploads.py), and the request goes on to the
upload's progress page (admin/uploads.py)."""

from datetime import date, datetime

from django import forms
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import FormView
from wagtail.admin.menu import MenuItem
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.admin.viewsets.base import ViewSet
from wagtail.admin.widgets import AdminDateInput, AdminDateTimeInput

from ..ingest.tasks import import_upload
from ..ingest.uploads import receive
from ..models import Source
from .uploads import URLS as UPLOADS
from .uploads import progress_url

# --- imports ------------------------------------------------------------------------------------


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("File"), help_text=_("CSV or JSON, UTF-8, as documented in docs/import-formats.md.")
    )
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[("", _("From the file name")), ("csv", "CSV"), ("json", "JSON")],
        required=False,
    )
    source = forms.ModelChoiceField(
        label=_("Source"),
        queryset=Source.objects.all(),
        required=False,
        help_text=_("Required for a CSV file; a JSON file may name its source itself."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > settings.IMPORT_MAX_BYTES:
            raise ValidationError(
                _("The file is larger than %(mb)s MB.") % {"mb": settings.IMPORT_MAX_BYTES // (1024 * 1024)}
            )
        return upload


class SnapshotImportForm(ImportForm):
    measured_at = forms.DateTimeField(
        label=_("Measured at"),
        required=False,
        widget=AdminDateTimeInput,
        help_text=_("Required for a CSV file; a JSON file may say it itself."),
    )
    workload = forms.CharField(label=_("Workload"), required=False, max_length=300)
    effort = forms.CharField(label=_("Effort / configuration"), required=False, max_length=100)
    concurrency = forms.IntegerField(label=_("Concurrency"), required=False, min_value=0)
    sample_size = forms.IntegerField(label=_("Sample size (requests)"), required=False, min_value=0)
    publish = forms.BooleanField(
        label=_("Publish now"),
        required=False,
        help_text=_("Leave unticked to review the draft snapshot first."),
    )
    meta_fields = ("source", "measured_at", "workload", "effort", "concurrency", "sample_size")


class PriceImportForm(ImportForm):
    effective_date = forms.DateField(
        label=_("Effective date"),
        required=False,
        widget=AdminDateInput,
        help_text=_("Used for rows that give no effective date."),
    )
    publish = forms.BooleanField(
        label=_("Use these prices now"),
        required=False,
        initial=True,
        help_text=_("Unticked: the prices are kept on a draft snapshot and not shown until it is published."),
    )
    meta_fields = ("source", "effective_date")


def option_value(value):
    """A form value as the task receives it (JSON): a source by id, moments in ISO 8601."""
    if isinstance(value, Source):
        return value.pk
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


class ImportView(WagtailAdminTemplateMixin, FormView):
    """Upload a file; the import runs in a Celery task and its progress page shows the outcome."""

    template_name = "benchmarks/admin/import.html"
    header_icon = "upload"
    kind = None  # "snapshot" or "prices" (Upload.Kind)
    form_class = None
    permission = None
    page_title = None

    def dispatch(self, request, *args, **kwargs):
        if not request.user.has_perm(self.permission):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_breadcrumbs_items(self):
        return self.breadcrumbs_items + [{"url": "", "label": self.get_page_title()}]

    def form_valid(self, form):
        """Store the file and queue its import; the progress page follows it (and shows any error)."""
        meta = {
            key: option_value(form.cleaned_data[key])
            for key in form.meta_fields
            if form.cleaned_data.get(key) not in (None, "")
        }
        options = {"format": form.cleaned_data["format"] or "", "publish": form.cleaned_data["publish"], "meta": meta}
        source = form.cleaned_data.get("source")
        upload = receive(self.request, self.kind, form.cleaned_data["file"], import_upload, options,
                         target=source or "")
        return redirect(progress_url(upload))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["kind"] = self.kind
        context["other_imports"] = [
            (viewset.menu_label, reverse(f"{viewset.name}:upload"))
            for viewset in (SnapshotImportViewSet, PriceImportViewSet)
            if viewset.kind != self.kind
        ]
        context["uploads_url"] = reverse(f"{UPLOADS}:index")
        return context


class SnapshotImportView(ImportView):
    kind = "snapshot"
    form_class = SnapshotImportForm
    permission = "benchmarks.add_snapshot"
    page_title = _("Import a snapshot")


class PriceImportView(ImportView):
    kind = "prices"
    form_class = PriceImportForm
    permission = "benchmarks.add_price"
    page_title = _("Import prices")


class ImportViewSet(ViewSet):
    view_class = None
    kind = None

    def get_urlpatterns(self):
        return [path("", self.view_class.as_view(), name="upload")]

    @cached_property
    def menu_item_class(self):
        permission = self.view_class.permission

        class ImportMenuItem(MenuItem):
            def is_shown(self, request):
                return request.user.has_perm(permission)

        return ImportMenuItem


class SnapshotImportViewSet(ImportViewSet):
    name = "benchmarks_import_snapshot"
    url_prefix = "benchmarks/import/snapshot"
    icon = "upload"
    menu_label = _("Import snapshot")
    view_class = SnapshotImportView
    kind = "snapshot"


class PriceImportViewSet(ImportViewSet):
    name = "benchmarks_import_prices"
    url_prefix = "benchmarks/import/prices"
    icon = "upload"
    menu_label = _("Import prices")
    view_class = PriceImportView
    kind = "prices"
