"""Snippet viewsets, choosers, import views for benchmark data (registered via wagtail_hooks)."""

import django_filters
from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils.functional import cached_property, lazy
from django.utils.translation import gettext_lazy as _
from django.views.generic import FormView, TemplateView
from wagtail import hooks
from wagtail.admin.filters import DateRangePickerWidget, WagtailFilterSet
from wagtail.admin.forms.choosers import BaseFilterForm
from wagtail.admin.menu import MenuItem
from wagtail.admin.panels import FieldPanel, FieldRowPanel, InlinePanel, MultiFieldPanel, ObjectList
from wagtail.admin.ui.menus import MenuItem as ListingMenuItem
from wagtail.admin.ui.tables import Column, DateColumn, StatusTagColumn
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.admin.viewsets.base import ViewSet
from wagtail.admin.widgets import AdminDateInput, AdminDateTimeInput, HeaderButton
from wagtail.permission_policies import ModelPermissionPolicy
from wagtail.permissions import register_permission_policy
from wagtail.snippets.models import register_snippet
from wagtail.snippets.views.chooser import ChooseResultsView, ChooseView, SnippetChooserViewSet
from wagtail.snippets.views.snippets import (
    DeleteView,
    EditView,
    IndexView,
    SnippetViewSet,
    SnippetViewSetGroup,
)

from editorial.forms import TranslatorRestrictedSnippetForm

from .cache import bump_data_generation
from .importers import ImportRejected, import_prices, import_snapshot
from .metrics import METRICS
from .models import Endpoint, LanguageModel, Measurement, Price, Provider, Snapshot, Source

# Other admin modules (e.g. refresh_admin) add entries to the "Benchmark data" menu through this hook.
BENCHMARK_DATA_MENU_HOOK = "register_benchmark_data_menu_item"
MAX_IMPORT_BYTES = 5 * 1024 * 1024


# --- choosers: searchable without a search index ----------------------------------------------


def chooser_viewset_class(search_fields, select_related=()):
    """A snippet chooser whose search box filters with icontains over `search_fields`.

    The models are not in Wagtail's search index, so the stock chooser offers no search.
    """

    class SearchForm(BaseFilterForm):
        q = forms.CharField(
            label=_("Search term"), required=False, widget=forms.TextInput(attrs={"placeholder": _("Search")})
        )

        def filter(self, objects):
            objects = super().filter(objects)
            query = (self.cleaned_data.get("q") or "").strip()
            if query:
                condition = Q()
                for name in search_fields:
                    condition |= Q(**{f"{name}__icontains": query})
                objects = objects.filter(condition)
                self.is_searching, self.search_query = True, query
            return objects

    class ObjectListMixin:
        filter_form_class = SearchForm

        def get_object_list(self):
            return self.model_class.objects.select_related(*select_related)

    return type(
        "BenchmarkChooserViewSet",
        (SnippetChooserViewSet,),
        {
            "choose_view_class": type("BenchmarkChooseView", (ObjectListMixin, ChooseView), {}),
            "choose_results_view_class": type(
                "BenchmarkChooseResultsView", (ObjectListMixin, ChooseResultsView), {}
            ),
        },
    )


def translated_row(name, label):
    """English and Spanish inputs side by side (wagtail-modeltranslation does not patch viewset panels)."""
    english = lazy(lambda: _("%(field)s (English)") % {"field": label}, str)()
    spanish = lazy(lambda: _("%(field)s (Spanish)") % {"field": label}, str)()
    return FieldRowPanel(
        [FieldPanel(f"{name}_en", heading=english), FieldPanel(f"{name}_es", heading=spanish)],
        heading=label,
    )


class SpanishOptionalForm(TranslatorRestrictedSnippetForm):
    """Translators may change only the Spanish fields; the Spanish text may stay empty because data
    fields fall back to English (see settings)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            if name.endswith("_es"):
                field.required = False


# --- providers, models, endpoints, sources ----------------------------------------------------


class ProviderViewSet(SnippetViewSet):
    model = Provider
    icon = "site"
    menu_label = _("Providers")
    list_display = ["name", "slug", "kind", "website"]
    list_filter = ["kind"]
    search_fields = ["name", "full_name", "slug", "description_en", "description_es"]
    ordering = ["name"]
    chooser_viewset_class = chooser_viewset_class(["name", "full_name", "slug"])
    edit_handler = ObjectList(
        [
            FieldRowPanel([FieldPanel("name"), FieldPanel("full_name")]),
            FieldRowPanel([FieldPanel("slug"), FieldPanel("kind")]),
            FieldPanel("website"),
            translated_row("description", _("One-line description")),
        ],
        base_form_class=SpanishOptionalForm,
    )


class LanguageModelViewSet(SnippetViewSet):
    model = LanguageModel
    icon = "pick"
    menu_label = _("Language models")
    list_display = ["name", "slug", "creator", "open_weights", "benchmark_effort", "is_baseline"]
    list_filter = ["open_weights", "is_baseline"]
    search_fields = ["name", "slug", "creator", "benchmark_effort"]
    ordering = ["name"]
    chooser_viewset_class = chooser_viewset_class(["name", "slug", "creator"])
    panels = [
        FieldRowPanel([FieldPanel("name"), FieldPanel("slug")]),
        FieldPanel("creator"),
        FieldRowPanel([FieldPanel("open_weights"), FieldPanel("is_baseline")]),
        FieldPanel("benchmark_effort"),
    ]


class EndpointViewSet(SnippetViewSet):
    model = Endpoint
    icon = "link"
    menu_label = _("Endpoints")
    list_display = ["__str__", "provider", "model", "tier", "deployment", "api_model_id"]
    list_filter = ["provider", "model", "deployment"]
    search_fields = ["provider__name", "provider__slug", "model__name", "model__slug", "tier", "api_model_id"]
    ordering = ["model__name", "provider__name", "tier"]
    chooser_viewset_class = chooser_viewset_class(
        ["provider__name", "provider__slug", "model__name", "model__slug", "tier"],
        select_related=("provider", "model"),
    )
    panels = [
        FieldRowPanel([FieldPanel("provider"), FieldPanel("model"), FieldPanel("tier")]),
        FieldPanel("api_model_id"),
        FieldPanel("api_docs_url"),
        FieldPanel("deployment"),
    ]

    def get_queryset(self, request):
        return Endpoint.objects.select_related("provider", "model")


class SourceViewSet(SnippetViewSet):
    model = Source
    icon = "doc-full"
    menu_label = _("Sources")
    list_display = [
        "__str__",
        "publisher",
        "kind",
        DateColumn("accessed_on", label=_("date accessed"), sort_key="accessed_on"),
    ]
    list_filter = ["kind", "auto_publish"]
    search_fields = ["title_en", "title_es", "publisher", "url"]
    ordering = ["publisher", "title_en"]
    chooser_viewset_class = chooser_viewset_class(["title_en", "title_es", "publisher", "url"])
    edit_handler = ObjectList(
        [
            translated_row("title", _("Title")),
            FieldRowPanel([FieldPanel("publisher"), FieldPanel("kind")]),
            FieldPanel("url"),
            FieldRowPanel([FieldPanel("licence"), FieldPanel("accessed_on")]),
            translated_row("attribution", _("Required attribution")),
            FieldPanel("auto_publish"),
        ],
        base_form_class=SpanishOptionalForm,
    )


# --- snapshots ----------------------------------------------------------------------------------


class SnapshotPermissionPolicy(ModelPermissionPolicy):
    """Published and superseded snapshots are history: nobody may delete them, not even in bulk."""

    def user_has_permission_for_instance(self, user, action, instance):
        if action == "delete" and instance.status != Snapshot.Status.DRAFT:
            return False
        return super().user_has_permission_for_instance(user, action, instance)


register_permission_policy(Snapshot, SnapshotPermissionPolicy(Snapshot), exact_class=True)


class SnapshotFilterSet(WagtailFilterSet):
    status = django_filters.ChoiceFilter(
        label=_("status"), choices=Snapshot.Status.choices, empty_label=_("All"), widget=forms.RadioSelect
    )
    source = django_filters.ModelChoiceFilter(label=_("source"), queryset=Source.objects.all())
    source_kind = django_filters.ChoiceFilter(
        label=_("source kind"), field_name="source__kind", choices=Source.Kind.choices, empty_label=_("All")
    )
    measured_at = django_filters.DateFromToRangeFilter(label=_("measured at"), widget=DateRangePickerWidget)

    class Meta:
        model = Snapshot
        fields = ["status", "source", "source_kind", "measured_at"]


def start_correction(snapshot):
    """A draft copy of a published snapshot, with its measurements, that will supersede it when published.

    Returns (draft, created): an open draft correction is reused rather than duplicated.
    """
    if snapshot.status != Snapshot.Status.PUBLISHED:
        raise ValidationError(_("Only a published snapshot can be corrected."))
    if snapshot.prices.exists():
        raise ValidationError(
            _("This snapshot records a price list; correct a price by editing it or import a new price list.")
        )
    existing = Snapshot.objects.filter(supersedes=snapshot).first()
    if existing:
        return existing, False
    with transaction.atomic():
        draft = Snapshot.objects.create(
            source_id=snapshot.source_id,
            workload=snapshot.workload,
            effort=snapshot.effort,
            concurrency=snapshot.concurrency,
            sample_size=snapshot.sample_size,
            window_start=snapshot.window_start,
            window_end=snapshot.window_end,
            measured_at=snapshot.measured_at,
            fetched_at=snapshot.fetched_at,
            raw_payload=snapshot.raw_payload,
            checksum=snapshot.checksum,
            supersedes=snapshot,
        )
        Measurement.objects.bulk_create(
            Measurement(snapshot=draft, endpoint_id=m.endpoint_id, metric=m.metric, value=m.value)
            for m in snapshot.measurements.all()
        )
    return draft, True


class SnapshotUrlsMixin:
    def snapshot_url(self, name, snapshot):
        return reverse(Snapshot.snippet_viewset.get_url_name(name), args=[snapshot.pk])


class SnapshotIndexView(SnapshotUrlsMixin, IndexView):
    def get_base_queryset(self):
        return (
            super()
            .get_base_queryset()
            .select_related("source")
            .annotate(measurement_count=Count("measurements"))
        )

    def get_delete_url(self, instance):
        if instance.status == Snapshot.Status.DRAFT:
            return super().get_delete_url(instance)
        return None

    def get_list_more_buttons(self, instance):
        buttons = super().get_list_more_buttons(instance)
        if not self.user_has_permission("change"):
            return buttons
        if instance.status == Snapshot.Status.DRAFT:
            buttons.append(
                ListingMenuItem(
                    _("Publish"), self.snapshot_url("publish", instance), icon_name="upload", priority=15
                )
            )
        elif instance.status == Snapshot.Status.PUBLISHED:
            buttons.append(
                ListingMenuItem(
                    _("Create correction"),
                    self.snapshot_url("correct", instance),
                    icon_name="edit",
                    priority=15,
                )
            )
        return buttons


class SnapshotEditView(SnapshotUrlsMixin, EditView):
    """Drafts are edited as usual; published and superseded snapshots are shown read-only."""

    @cached_property
    def read_only(self):
        return self.object.status != Snapshot.Status.DRAFT

    def get_template_names(self):
        if self.read_only:
            return ["benchmarks/admin/snapshot_readonly.html"]
        return ["benchmarks/admin/snapshot_edit.html"]

    def post(self, request, *args, **kwargs):
        self.object = self.get_object()
        if self.read_only:
            messages.error(request, read_only_message(self.object))
            return redirect(self.get_edit_url())
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        try:
            return super().form_valid(form)
        except ValidationError as error:
            # Published in another tab meanwhile: the model refuses the change; say so on the form.
            form.add_error(None, error)
            self.produced_error_message = self.get_error_message()
            return self.form_invalid(form)

    @cached_property
    def can_delete(self):
        return not self.read_only and super().can_delete

    def get_header_buttons(self):
        buttons = list(super().get_header_buttons())
        if self.user_has_permission("change"):
            if self.object.status == Snapshot.Status.DRAFT:
                buttons.insert(
                    0,
                    HeaderButton(
                        _("Publish"), url=self.snapshot_url("publish", self.object), icon_name="upload"
                    ),
                )
            elif self.object.status == Snapshot.Status.PUBLISHED and not self.object.prices.exists():
                buttons.insert(
                    0,
                    HeaderButton(
                        _("Create correction"),
                        url=self.snapshot_url("correct", self.object),
                        icon_name="edit",
                    ),
                )
        return buttons

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        snapshot = self.object
        context["read_only"] = self.read_only
        context["read_only_message"] = read_only_message(snapshot) if self.read_only else ""
        context["superseded_by"] = Snapshot.objects.filter(supersedes=snapshot).first()
        if self.read_only:
            context["measurements"] = measurement_rows(snapshot)
            context["price_count"] = snapshot.prices.count()
        if self.user_has_permission("change"):
            context["publish_url"] = self.snapshot_url("publish", snapshot)
            context["correct_url"] = self.snapshot_url("correct", snapshot)
        return context


class SnapshotDeleteView(DeleteView):
    def dispatch(self, request, *args, **kwargs):
        if self.object.status != Snapshot.Status.DRAFT:
            messages.error(request, read_only_message(self.object))
            return redirect(self.edit_url_name, self.object.pk)
        return super().dispatch(request, *args, **kwargs)


def read_only_message(snapshot):
    if snapshot.status == Snapshot.Status.SUPERSEDED:
        return _(
            "This snapshot was superseded by a correction and is kept unchanged as history. "
            "Its figures are no longer shown on the site."
        )
    return _(
        "This snapshot is published and cannot be changed. To fix a figure, create a correction: "
        "a draft copy you edit and publish with a note. This snapshot is then kept, unchanged, as history."
    )


def measurement_rows(snapshot):
    rows = snapshot.measurements.select_related("endpoint__provider", "endpoint__model").order_by(
        "endpoint__model__name", "endpoint__provider__name", "endpoint__tier", "metric"
    )
    return [(row, METRICS.get(row.metric)) for row in rows]


class SnapshotActionView(SnapshotUrlsMixin, WagtailAdminTemplateMixin, TemplateView):
    """Shared by publish and correct: a confirmation page on GET, the action on POST."""

    header_icon = "table"

    def dispatch(self, request, *args, **kwargs):
        policy = Snapshot.snippet_viewset.permission_policy
        if not policy.user_has_permission(request.user, "change"):
            raise PermissionDenied
        self.object = get_object_or_404(
            Snapshot.objects.select_related("source", "supersedes"), pk=kwargs["pk"]
        )
        return super().dispatch(request, *args, **kwargs)

    def get_page_subtitle(self):
        return str(self.object)

    def get_breadcrumbs_items(self):
        return self.breadcrumbs_items + [
            {"url": reverse(Snapshot.snippet_viewset.get_url_name("list")), "label": _("Snapshots")},
            {"url": self.snapshot_url("edit", self.object), "label": str(self.object)},
            {"url": "", "label": self.get_page_title()},
        ]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            object=self.object,
            edit_url=self.snapshot_url("edit", self.object),
            measurement_count=self.object.measurements.count(),
        )
        return context


class SnapshotPublishView(SnapshotActionView):
    template_name = "benchmarks/admin/snapshot_publish.html"
    page_title = _("Publish snapshot")

    def post(self, request, *args, **kwargs):
        snapshot = self.object
        note = request.POST.get("correction_note", snapshot.correction_note).strip()
        if snapshot.status != Snapshot.Status.DRAFT:
            messages.error(request, _("Only a draft snapshot can be published."))
            return redirect(self.snapshot_url("edit", snapshot))
        if not snapshot.measurements.exists() and not snapshot.prices.exists():
            messages.error(request, _("This snapshot has no measurements; add some before publishing it."))
            return redirect(self.snapshot_url("edit", snapshot))
        try:
            if snapshot.supersedes_id:
                snapshot.supersedes.publish_correction(snapshot, note)
            else:
                snapshot.publish()
        except ValidationError as error:
            return self.render_to_response(self.get_context_data(errors=error.messages, correction_note=note))
        transaction.on_commit(bump_data_generation)
        if snapshot.supersedes_id:
            messages.success(
                request,
                _("Snapshot #%(new)s published; it replaces snapshot #%(old)s, which is kept as history.")
                % {"new": snapshot.pk, "old": snapshot.supersedes_id},
            )
        else:
            messages.success(request, _("Snapshot #%(pk)s published.") % {"pk": snapshot.pk})
        return redirect(self.snapshot_url("edit", snapshot))

    def get_context_data(self, **kwargs):
        kwargs.setdefault("correction_note", self.object.correction_note)
        return super().get_context_data(**kwargs)


class SnapshotCorrectView(SnapshotActionView):
    template_name = "benchmarks/admin/snapshot_correct.html"
    page_title = _("Create correction")

    def post(self, request, *args, **kwargs):
        try:
            draft, created = start_correction(self.object)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
            return redirect(self.snapshot_url("edit", self.object))
        if created:
            messages.success(
                request,
                _("Draft correction #%(pk)s created. Fix the figures, say what changed and publish it.")
                % {"pk": draft.pk},
            )
        else:
            messages.info(request, _("A draft correction of this snapshot already exists; here it is."))
        return redirect(self.snapshot_url("edit", draft))


class SnapshotViewSet(SnippetViewSet):
    model = Snapshot
    icon = "table"
    menu_label = _("Snapshots")
    index_view_class = SnapshotIndexView
    edit_view_class = SnapshotEditView
    delete_view_class = SnapshotDeleteView
    copy_view_enabled = False
    inspect_view_enabled = True
    list_display = [
        "__str__",
        "source",
        DateColumn("measured_at", label=_("measured at"), sort_key="measured_at"),
        StatusTagColumn(
            "status",
            label=_("status"),
            accessor="get_status_display",
            primary=lambda s: s.status == "published",
        ),
        Column("measurement_count", label=_("measurements")),
    ]
    filterset_class = SnapshotFilterSet
    search_fields = ["source__title_en", "source__publisher", "workload", "effort", "correction_note"]
    ordering = ["-measured_at"]
    chooser_viewset_class = chooser_viewset_class(
        ["source__title_en", "source__publisher", "workload"], ("source",)
    )
    edit_handler = ObjectList(
        [
            FieldPanel("source"),
            MultiFieldPanel(
                [
                    FieldPanel("workload"),
                    FieldRowPanel(
                        [FieldPanel("effort"), FieldPanel("concurrency"), FieldPanel("sample_size")]
                    ),
                    FieldRowPanel([FieldPanel("window_start"), FieldPanel("window_end")]),
                    FieldRowPanel([FieldPanel("measured_at"), FieldPanel("fetched_at")]),
                ],
                heading=_("What was measured and how"),
            ),
            FieldPanel("correction_note"),
            InlinePanel(
                "measurements",
                heading=_("Measurements"),
                label=_("Measurement"),
                panels=[FieldRowPanel([FieldPanel("endpoint"), FieldPanel("metric"), FieldPanel("value")])],
            ),
        ]
    )

    def get_urlpatterns(self):
        return super().get_urlpatterns() + [
            path("publish/<int:pk>/", SnapshotPublishView.as_view(), name="publish"),
            path("correct/<int:pk>/", SnapshotCorrectView.as_view(), name="correct"),
        ]


# --- prices -------------------------------------------------------------------------------------


class PriceFilterSet(WagtailFilterSet):
    provider = django_filters.ModelChoiceFilter(
        label=_("provider"), field_name="endpoint__provider", queryset=Provider.objects.all()
    )
    model = django_filters.ModelChoiceFilter(
        label=_("model"), field_name="endpoint__model", queryset=LanguageModel.objects.all()
    )
    currency = django_filters.CharFilter(label=_("currency"), lookup_expr="iexact")
    source = django_filters.ModelChoiceFilter(label=_("source"), queryset=Source.objects.all())
    effective_date = django_filters.DateFromToRangeFilter(
        label=_("effective date"), widget=DateRangePickerWidget
    )

    class Meta:
        model = Price
        fields = ["provider", "model", "currency", "source", "effective_date"]


class PriceViewSet(SnippetViewSet):
    model = Price
    icon = "tag"
    menu_label = _("Prices")
    list_display = [
        "__str__",
        "input_per_m",
        "output_per_m",
        "currency",
        DateColumn("effective_date", label=_("effective date"), sort_key="effective_date"),
        DateColumn("promo_until", label=_("promotion until")),
        "source",
    ]
    filterset_class = PriceFilterSet
    search_fields = [
        "endpoint__provider__name",
        "endpoint__model__name",
        "endpoint__tier",
        "currency",
        "source__publisher",
    ]
    ordering = ["endpoint__model__name", "endpoint__provider__name", "-effective_date"]
    chooser_viewset_class = chooser_viewset_class(
        ["endpoint__provider__name", "endpoint__model__name"], ("endpoint__provider", "endpoint__model")
    )
    panels = [
        FieldPanel("endpoint"),
        FieldRowPanel([FieldPanel("input_per_m"), FieldPanel("output_per_m"), FieldPanel("currency")]),
        FieldRowPanel(
            [FieldPanel("promo_input_per_m"), FieldPanel("promo_output_per_m"), FieldPanel("promo_until")]
        ),
        FieldRowPanel([FieldPanel("effective_date"), FieldPanel("source")]),
        FieldPanel("snapshot"),
    ]

    def get_queryset(self, request):
        return Price.objects.select_related("endpoint__provider", "endpoint__model", "source")


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


class BenchmarkDataGroup(SnippetViewSetGroup):
    menu_label = _("Benchmark data")
    menu_name = "benchmark-data"
    menu_icon = "table"
    menu_order = 200
    submenu_hook = BENCHMARK_DATA_MENU_HOOK
    items = (
        ProviderViewSet,
        LanguageModelViewSet,
        EndpointViewSet,
        SourceViewSet,
        SnapshotViewSet,
        PriceViewSet,
        SnapshotImportViewSet,
        PriceImportViewSet,
    )


register_snippet(BenchmarkDataGroup)


# Cached page fragments are keyed on the data generation: an editor's change must show at once.
@hooks.register("after_create_snippet")
@hooks.register("after_edit_snippet")
def bump_generation_after_save(request, instance):
    if isinstance(instance, Snapshot) and instance.status == Snapshot.Status.DRAFT:
        return  # a draft is not on the site
    if isinstance(instance, Provider | LanguageModel | Endpoint | Source | Snapshot | Price):
        transaction.on_commit(bump_data_generation)


@hooks.register("after_delete_snippet")
def bump_generation_after_delete(request, instances):
    if any(isinstance(i, Provider | LanguageModel | Endpoint | Source | Snapshot | Price) for i in instances):
        transaction.on_commit(bump_data_generation)
