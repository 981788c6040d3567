"""A snapshot's measurements a page at a time, with a filter, in the read-only view and the draft editor.

A snapshot may hold tens of thousands of measurements: rendering them all (and, in the draft editor,
an inline form per row) took minutes and thousands of queries. Both views show one page of rows
that the filter (model, provider, metric) selects; the draft editor's inline forms are that page.
"""

from dataclasses import dataclass

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.paginator import Paginator
from django.db.models import Q
from django.forms.models import BaseModelFormSet
from django.utils.translation import gettext_lazy as _
from modelcluster.forms import BaseChildFormSet
from wagtail.admin.panels import InlinePanel
from wagtail.snippets.widgets import AdminSnippetChooser

from ..metrics import METRIC_CHOICES, METRICS
from ..models import Endpoint, LanguageModel, Measurement, Provider

PAGE_SIZE = 100
PAGE_PARAM = "p"
ROW_ORDER = ("endpoint__model__name", "endpoint__provider__name", "endpoint__tier", "metric", "pk")


class MeasurementFilterForm(forms.Form):
    """Narrows a snapshot's measurements; the choices are the models and providers it measured."""

    model = forms.ModelChoiceField(
        label=_("Model"), queryset=LanguageModel.objects.none(), required=False, empty_label=_("All models")
    )
    provider = forms.ModelChoiceField(
        label=_("Provider"), queryset=Provider.objects.none(), required=False, empty_label=_("All providers")
    )
    metric = forms.ChoiceField(label=_("Metric"), required=False)

    def __init__(self, snapshot, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["model"].queryset = LanguageModel.objects.filter(
            endpoints__measurements__snapshot=snapshot
        ).distinct()
        self.fields["provider"].queryset = Provider.objects.filter(
            endpoints__measurements__snapshot=snapshot
        ).distinct()
        self.fields["metric"].choices = [("", _("All metrics"))] + list(METRIC_CHOICES)

    def filter(self, rows):
        if not self.is_valid():
            return rows
        data = self.cleaned_data
        if data.get("model"):
            rows = rows.filter(endpoint__model=data["model"])
        if data.get("provider"):
            rows = rows.filter(endpoint__provider=data["provider"])
        if data.get("metric"):
            rows = rows.filter(metric=data["metric"])
        return rows

    @property
    def is_filtering(self):
        return self.is_valid() and any(self.cleaned_data.values())


@dataclass
class MeasurementWindow:
    """The page of a snapshot's measurements the editor asked for (`?p=` and the filter)."""

    filter_form: MeasurementFilterForm
    page: object  # django.core.paginator.Page
    total: int  # every measurement of the snapshot, unfiltered

    @property
    def rows(self):
        return self.page.object_list

    @property
    def table_rows(self):
        """(measurement, its metric or None if the registry no longer knows it) for the read-only table."""
        return [(row, METRICS.get(row.metric)) for row in self.page.object_list]

    @property
    def first_row_number(self):
        return self.page.start_index()

    @property
    def last_row_number(self):
        return self.page.end_index()


def snapshot_rows(snapshot):
    return Measurement.objects.filter(snapshot=snapshot).select_related(
        "endpoint__provider", "endpoint__model"
    )


def measurement_window(snapshot, params, page_size=PAGE_SIZE):
    filter_form = MeasurementFilterForm(snapshot, params or None)
    rows = filter_form.filter(snapshot_rows(snapshot)).order_by(*ROW_ORDER)
    page = Paginator(rows, page_size).get_page(params.get(PAGE_PARAM))
    total = snapshot.measurements.count() if filter_form.is_filtering else page.paginator.count
    return MeasurementWindow(filter_form=filter_form, page=page, total=total)


def posted_row_ids(data, prefix):
    """Primary keys of the stored rows a bound measurements formset carries."""
    ids = []
    for key, value in data.items():
        if key.startswith(f"{prefix}-") and key.endswith("-id") and str(value).isdigit():
            ids.append(int(value))
    return ids


class EndpointChooser(AdminSnippetChooser):
    """The endpoint chooser of a measurement row; it shows the chosen endpoint's name, which it
    would look up (three queries) once per row unless handed the row's endpoint, loaded with the page."""

    known = None

    def __init__(self, **kwargs):
        super().__init__(model=Endpoint, **kwargs)

    def get_instance(self, value):
        if self.known is not None and value is not None and str(value) == str(self.known.pk):
            return self.known
        return super().get_instance(value)


class MeasurementFormSet(BaseChildFormSet):
    """The inline measurement forms of one page of a draft snapshot.

    modelcluster would load every measurement of the snapshot into memory and save each of them
    again, to commit the page's changes: with a page on screen, only the page's rows are written.
    """

    def _construct_form(self, i, **kwargs):
        form = super()._construct_form(i, **kwargs)
        endpoint = form.instance._state.fields_cache.get("endpoint")  # loaded with the page's rows
        widget = getattr(form.fields.get("endpoint"), "widget", None)
        if endpoint is not None and isinstance(widget, EndpointChooser):
            widget.known = endpoint  # each form has its own copy of the widget
        return form

    def clean(self):
        super().clean()
        self.check_other_pages()

    def check_other_pages(self):
        """A row on this page may not repeat an endpoint and metric stored on another page."""
        if self.instance.pk is None:
            return
        kept = [
            form for form in self.forms
            if form.is_valid() and form.has_changed() and form not in self.deleted_forms
            and form.cleaned_data.get("endpoint") and form.cleaned_data.get("metric")
        ]
        if not kept:
            return
        on_page = [form.instance.pk for form in self.forms if form.instance.pk]
        wanted = Q()
        for form in kept:
            wanted |= Q(endpoint=form.cleaned_data["endpoint"], metric=form.cleaned_data["metric"])
        stored = set(
            Measurement.objects.filter(snapshot=self.instance)
            .filter(wanted)
            .exclude(pk__in=on_page)
            .values_list("endpoint_id", "metric")
        )
        message = _("This snapshot already has a value of this metric for this endpoint (on another page).")
        clashing = [f for f in kept if (f.cleaned_data["endpoint"].pk, f.cleaned_data["metric"]) in stored]
        for form in clashing:
            form._errors.setdefault(NON_FIELD_ERRORS, form.error_class()).append(message)
        if clashing:
            raise ValidationError(message)

    def save(self, commit=True):
        if self.instance.pk is None:
            # A new snapshot has no stored rows yet: modelcluster saves them with it.
            return super().save(commit=commit)
        # The snapshot form saves inside the edit view's transaction: write this page's changes now,
        # leaving the snapshot's other rows alone.
        saved = BaseModelFormSet.save(self, commit=False)
        for row in self.deleted_objects:
            row.snapshot = self.instance
            row.delete()
        for row in saved:
            row.snapshot = self.instance
            row.save()
        return saved


class MeasurementsPanel(InlinePanel):
    """The measurements inline, saved with MeasurementFormSet."""

    def get_form_options(self):
        options = super().get_form_options()
        options["formsets"][self.relation_name]["formset"] = MeasurementFormSet
        return options


def restrict_formset(form, rows):
    """Give the snapshot form's measurements formset only `rows` (the page on screen, or the rows
    a submitted page carries) instead of every measurement of the snapshot."""
    formset = form.formsets.get("measurements")
    if formset is None:
        return form
    form.formsets["measurements"] = type(formset)(
        formset.data if formset.is_bound else None,
        formset.files if formset.is_bound else None,
        instance=form.instance,
        prefix=formset.prefix,
        queryset=rows,
        form_kwargs=formset.form_kwargs,
    )
    return form
