"""Prices: listing with filters and editing. A price recorded by a published (or superseded) snapshot
is history: it is shown, never edited or deleted in place; it changes through a correction of its
snapshot, which keeps the old price and says what changed."""

from dataclasses import dataclass

import django_filters
from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from wagtail.admin.filters import DateRangePickerWidget, WagtailFilterSet
from wagtail.admin.panels import FieldPanel, FieldRowPanel
from wagtail.admin.ui.tables import DateColumn
from wagtail.permission_policies import ModelPermissionPolicy
from wagtail.permissions import register_permission_policy
from wagtail.snippets.views.snippets import CreateView, EditView, SnippetViewSet

from ..models import ImmutablePriceError, LanguageModel, Price, Provider, Snapshot, Source

# --- prices -------------------------------------------------------------------------------------
from .choosers import chooser_viewset_class


class PricePermissionPolicy(ModelPermissionPolicy):
    """Nobody deletes a price that belongs to published history, not even in bulk."""

    def user_has_permission_for_instance(self, user, action, instance):
        if action == "delete" and instance.locked_by() is not None:
            return False
        return super().user_has_permission_for_instance(user, action, instance)


register_permission_policy(Price, PricePermissionPolicy(Price), exact_class=True)


class PriceEditView(EditView):
    """Editable while the price is free-standing or in a draft; otherwise a refusal that points to the
    correction flow of its snapshot."""

    @cached_property
    def locked_by(self):
        return self.object.locked_by()

    def locked_message(self):
        return ImmutablePriceError(self.locked_by).messages[0]

    def correction_url(self):
        return reverse(Snapshot.snippet_viewset.get_url_name("correct"), args=[self.locked_by.pk])

    def post(self, request, *args, **kwargs):
        if self.locked_by is not None:
            messages.error(request, self.locked_message())
            return redirect(self.get_edit_url())
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        try:
            response = super().form_valid(form)
        except ValidationError as error:  # its snapshot was published in another tab meanwhile
            form.add_error(None, error)
            return self.form_invalid(form)
        mark_prepared(self.object, self.request.user)
        return response

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["price_locked_by"] = self.locked_by
        if self.locked_by is not None and self.locked_by.status == "published":
            context["price_correction_url"] = self.correction_url()
        return context


def mark_prepared(price, user):
    """A price added to or changed in a draft price list makes its snapshot `user`'s preparation, which
    with four eyes someone else publishes (config/four_eyes.py)."""
    Snapshot.objects.filter(pk=price.snapshot_id, status=Snapshot.Status.DRAFT).update(prepared_by_user_id=user.pk)


class PriceCreateView(CreateView):
    def form_valid(self, form):
        response = super().form_valid(form)
        mark_prepared(self.object, self.request.user)
        return response


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
    add_view_class = PriceCreateView
    edit_view_class = PriceEditView
    edit_template_name = "benchmarks/admin/price_edit.html"
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
        ["endpoint__provider__name", "endpoint__provider__slug", "endpoint__model__name", "endpoint__model__slug",
         "endpoint__tier", "currency"],
        ("endpoint__provider", "endpoint__model"),
        ordering=["endpoint__provider__name", "endpoint__model__name", "endpoint__tier", "-effective_date"],
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


# --- the prices of a draft price list, a page at a time ------------------------------------------
# The draft snapshot editor listed every price of a price list, each a link to its own form: a list of
# thousands of rows. It shows one page of the prices a filter (model, provider) selects, like the
# measurements (snapshot_measurements.py); its parameters are named apart from theirs (`p`, model…).
PRICE_PAGE_SIZE = 100
PRICE_PAGE_PARAM = "price_page"
PRICE_ORDER = ("endpoint__model__name", "endpoint__provider__name", "endpoint__tier", "-effective_date", "pk")


class DraftPriceFilterForm(forms.Form):
    """Narrows a draft's prices; the choices are the models and providers it has prices for."""

    price_model = forms.ModelChoiceField(
        label=_("Model"), queryset=LanguageModel.objects.none(), required=False, empty_label=_("All models")
    )
    price_provider = forms.ModelChoiceField(
        label=_("Provider"), queryset=Provider.objects.none(), required=False, empty_label=_("All providers")
    )

    def __init__(self, snapshot, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["price_model"].queryset = LanguageModel.objects.filter(
            endpoints__prices__snapshot=snapshot
        ).distinct()
        self.fields["price_provider"].queryset = Provider.objects.filter(
            endpoints__prices__snapshot=snapshot
        ).distinct()

    def filter(self, rows):
        if not self.is_valid():
            return rows
        if self.cleaned_data.get("price_model"):
            rows = rows.filter(endpoint__model=self.cleaned_data["price_model"])
        if self.cleaned_data.get("price_provider"):
            rows = rows.filter(endpoint__provider=self.cleaned_data["price_provider"])
        return rows

    @property
    def is_filtering(self):
        return self.is_valid() and any(self.cleaned_data.values())


@dataclass
class PriceWindow:
    """The page of a draft's prices the editor asked for (`?price_page=` and the filter)."""

    filter_form: DraftPriceFilterForm
    page: object  # django.core.paginator.Page
    total: int  # every price of the snapshot, unfiltered
    kept_params: list  # (name, value) of the other GET parameters, which the filter form carries along

    @property
    def links(self):
        """(price, the URL of its own form) for the page's prices."""
        url_name = Price.snippet_viewset.get_url_name("edit")
        return [(price, reverse(url_name, args=[price.pk])) for price in self.page.object_list]


def price_window(snapshot, params, page_size=PRICE_PAGE_SIZE):
    filter_form = DraftPriceFilterForm(snapshot, params or None)
    rows = Price.objects.filter(snapshot=snapshot).select_related("endpoint__provider", "endpoint__model")
    page = Paginator(filter_form.filter(rows).order_by(*PRICE_ORDER), page_size).get_page(
        params.get(PRICE_PAGE_PARAM)
    )
    total = snapshot.prices.count() if filter_form.is_filtering else page.paginator.count
    own = {*filter_form.fields, PRICE_PAGE_PARAM}
    kept = [(name, value) for name, values in params.lists() if name not in own for value in values]
    return PriceWindow(filter_form=filter_form, page=page, total=total, kept_params=kept)
