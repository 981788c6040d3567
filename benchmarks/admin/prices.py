"""Prices: listing with filters and editing."""

import django_filters
from django.utils.translation import gettext_lazy as _
from wagtail.admin.filters import DateRangePickerWidget, WagtailFilterSet
from wagtail.admin.panels import FieldPanel, FieldRowPanel
from wagtail.admin.ui.tables import DateColumn
from wagtail.snippets.views.snippets import (
    SnippetViewSet,
)

from ..models import LanguageModel, Price, Provider, Source

# --- prices -------------------------------------------------------------------------------------
from .choosers import chooser_viewset_class


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
