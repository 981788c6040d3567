"""The article edit form refuses, on publish, citations the editor chose from sources not in the page's list."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import ngettext
from wagtail.admin.forms import WagtailAdminPageForm
from wagtail.snippets.widgets import AdminSnippetChooser

from localized.form_access import restrict_fields

from .block_definitions import pack_definitions_once


def missing_chosen_citations(stream_value, page_sources):
    """The sources the editor chose to cite in the body (each block declares its own:
    `chosen_citations`) that the page's list lacks. Read from the block values alone: the check
    neither loads the data nor renders the body. Sources that data brings (a price from a page not
    listed yet) are not the editor's choice, and never block a publish."""
    listed = {source.pk for source in page_sources}
    missing = set()
    for child in stream_value:
        chosen = getattr(child.block, "chosen_citations", None)
        if chosen is not None:
            missing.update(source for source in chosen(child.value) if source.pk not in listed)
    return missing


class TranslatorAwarePageForm(WagtailAdminPageForm):
    """Translators change the Spanish fields of a page and nothing else (the rule: editorial.permissions,
    registered in localized.form_access)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        pack_definitions_once(self)
        if getattr(self, "for_user", None) is not None:
            restrict_fields(self, self.for_user, include_formsets=False)


class SourceChooser(AdminSnippetChooser):
    """The source chooser of a page-source row. It shows the chosen source's name, which it would
    look up once per row (the demo article lists 18 sources) unless the page form hands it the
    sources of every row, loaded in one query."""

    known = None  # {str(pk): Source}

    def __init__(self, **kwargs):
        from benchmarks.models import Source

        super().__init__(model=Source, **kwargs)

    def get_instance(self, value):
        found = (self.known or {}).get(str(value)) if value not in (None, "") else None
        return found if found is not None else super().get_instance(value)


class ArticlePageForm(TranslatorAwarePageForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.load_chosen_sources()

    def load_chosen_sources(self):
        from benchmarks.models import Source

        formset = getattr(self, "formsets", {}).get("page_sources")
        if formset is None:
            return
        choosers = []
        for form in formset.forms:
            field = form.fields.get("source")
            if field is not None and isinstance(field.widget, SourceChooser):
                choosers.append((form["source"].value(), field.widget))
        ids = {str(value) for value, _widget in choosers if str(value or "").isdigit()}
        known = {str(source.pk): source for source in Source.objects.filter(pk__in=ids)} if ids else {}
        for _value, widget in choosers:
            widget.known = known

    def full_clean(self):
        from .row_lookups import share_row_lookups

        formset = getattr(self, "formsets", {}).get("page_sources")
        if formset is not None and self.is_bound:
            share_row_lookups(formset, ["source", "id"])
        super().full_clean()

    def clean(self):
        cleaned = super().clean()
        if getattr(self, "is_deferred_validation", False):
            # A draft (or autosave) always saves; publishing checks the citations.
            return cleaned
        formset = self.formsets.get("page_sources") if hasattr(self, "formsets") else None
        if formset is None or not formset.is_valid():
            return cleaned
        kept = [
            form.cleaned_data
            for form in formset.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE") and form.cleaned_data.get("source")
        ]
        kept.sort(key=lambda row: row.get("ORDER") or 0)
        page_sources = [row["source"] for row in kept]
        for lang, _name in settings.LANGUAGES:
            field = f"body_{lang}"
            stream = cleaned.get(field)
            if stream is None or not len(stream):
                continue
            missing = missing_chosen_citations(stream, page_sources)
            # Only a citation the editor chose must be in the list. One that data brings (a
            # price from a page not listed yet) is numbered after the list on the live page and
            # reported in the review list: new data never blocks an unrelated save.
            if missing:
                names = ", ".join(sorted(f"“{source}”" for source in missing))
                message = ngettext(
                    "The body cites %(sources)s, which is not in this page's sources. "
                    "Add it under Sources or remove the citation.",
                    "The body cites %(sources)s, which are not in this page's sources. "
                    "Add them under Sources or remove the citations.",
                    len(missing),
                ) % {"sources": names}
                self.add_error(field, ValidationError(message))
        return cleaned
