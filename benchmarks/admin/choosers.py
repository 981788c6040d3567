"""Snippet choosers that search without a search index, and shared form helpers."""

from django import forms
from django.db.models import Q
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from wagtail.admin.forms.choosers import BaseFilterForm
from wagtail.admin.panels import FieldPanel, FieldRowPanel
from wagtail.snippets.views.chooser import ChooseResultsView, ChooseView, SnippetChooserViewSet

from editorial.forms import TranslatorRestrictedSnippetForm

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
