"""Upload pages for snapshot and price files (the same importers as the commands)."""

from django import forms
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import path, reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import FormView
from wagtail.admin.menu import MenuItem
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.admin.viewsets.base import ViewSet
from wagtail.admin.widgets import AdminDateInput, AdminDateTimeInput

from ..ingest.importers import ImportRejected, import_prices, import_snapshot
from ..models import Snapshot, Source

MAX_IMPORT_BYTES = 5 * 1024 * 1024


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
        if upload.size > MAX_IMPORT_BYTES:
            raise ValidationError(
                _("The file is larger than %(mb)s MB.") % {"mb": MAX_IMPORT_BYTES // (1024 * 1024)}
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


class ImportView(WagtailAdminTemplateMixin, FormView):
    """Upload a file; show every error with its row and column, or what was imported."""

    template_name = "benchmarks/admin/import.html"
    header_icon = "upload"
    kind = None  # "snapshot" or "prices"
    form_class = None
    importer = None
    permission = None
    page_title = None

    def dispatch(self, request, *args, **kwargs):
        if not request.user.has_perm(self.permission):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_breadcrumbs_items(self):
        return self.breadcrumbs_items + [{"url": "", "label": self.get_page_title()}]

    def form_valid(self, form):
        upload = form.cleaned_data["file"]
        meta = {
            key: form.cleaned_data[key]
            for key in form.meta_fields
            if form.cleaned_data.get(key) not in (None, "")
        }
        try:
            result = self.importer(
                upload.read(),
                form.cleaned_data["format"] or None,
                filename=upload.name,
                publish=form.cleaned_data["publish"],
                **meta,
            )
        except ImportRejected as rejected:
            return self.render_to_response(
                self.get_context_data(form=form, errors=rejected.errors, filename=upload.name)
            )
        if result.created and result.snapshot.status == Snapshot.Status.DRAFT:
            # A held upload is this user's preparation: with four eyes, someone else publishes it.
            Snapshot.objects.filter(pk=result.snapshot.pk).update(prepared_by_user_id=self.request.user.pk)
        context = self.get_context_data(form=self.get_form_class()(), result=result, filename=upload.name)
        context["snapshot_url"] = reverse(
            Snapshot.snippet_viewset.get_url_name("edit"), args=[result.snapshot.pk]
        )
        return self.render_to_response(context)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["kind"] = self.kind
        context["other_imports"] = [
            (viewset.menu_label, reverse(f"{viewset.name}:upload"))
            for viewset in (SnapshotImportViewSet, PriceImportViewSet)
            if viewset.kind != self.kind
        ]
        return context


class SnapshotImportView(ImportView):
    kind = "snapshot"
    form_class = SnapshotImportForm
    importer = staticmethod(import_snapshot)
    permission = "benchmarks.add_snapshot"
    page_title = _("Import a snapshot")


class PriceImportView(ImportView):
    kind = "prices"
    form_class = PriceImportForm
    importer = staticmethod(import_prices)
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
