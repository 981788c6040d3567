"""Snippet choosers that search without a search index, and shared form helpers."""

from django import forms
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _
from wagtail.admin.forms.choosers import BaseFilterForm
from wagtail.admin.panels import FieldPanel
from wagtail.snippets.views.chooser import ChooseResultsView, ChooseView, SnippetChooserViewSet

from editorial.forms import TranslatorRestrictedSnippetForm

# --- choosers: searchable without a search index ----------------------------------------------


def search_terms(query):
    """The words a person typed, without the punctuation our labels put around them: pasting
    "Together AI (Fast) · GLM-5.3" finds that endpoint."""
    terms = (word.strip("()[]·,;:\"'“”«»") for word in query.split())
    return [term for term in terms if any(char.isalnum() for char in term)]


def by_name(*fields):
    """Ordering by names as a person reads them: "deepinfra" and "DeepInfra" sort together.
    A leading "-" orders that field newest/largest first and keeps its case."""
    return [field if field.startswith("-") else Lower(field) for field in fields]


def chooser_viewset_class(search_fields, select_related=(), ordering=()):
    """A snippet chooser whose search box filters over `search_fields` and lists by `ordering`.

    The models are not in Wagtail's search index, so the stock chooser offers no search. Every word
    typed must match one of the fields (icontains), so "fireworks glm" finds Fireworks's GLM
    endpoints whichever field holds which word.
    """

    class SearchForm(BaseFilterForm):
        q = forms.CharField(
            label=_("Search term"), required=False, widget=forms.TextInput(attrs={"placeholder": _("Search")})
        )

        def filter(self, objects):
            objects = super().filter(objects)
            query = (self.cleaned_data.get("q") or "").strip()
            if query:
                for term in search_terms(query):
                    condition = Q()
                    for name in search_fields:
                        condition |= Q(**{f"{name}__icontains": term})
                    objects = objects.filter(condition)
                self.is_searching, self.search_query = True, query
            return objects

    class ObjectListMixin:
        filter_form_class = SearchForm

        def apply_object_list_ordering(self, objects):
            if not ordering:
                return super().apply_object_list_ordering(objects)
            return objects.order_by(*by_name(*ordering), "pk")

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
    """The English input only: the Spanish text is written and approved in the translation workspace
    (editorial.spanish rebuilds the Spanish field of every revision from it)."""
    return FieldPanel(
        f"{name}_en",
        heading=label,
        help_text=_("The Spanish text is written in the translation workspace (Translation status)."),
    )


class SpanishOptionalForm(TranslatorRestrictedSnippetForm):
    """Translators may change only the Spanish fields; the Spanish text may stay empty because data
    fields fall back to English (see settings)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            if name.endswith("_es"):
                field.required = False
