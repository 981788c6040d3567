"""The article edit form refuses citations of sources that are not in the page's source list."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import ngettext
from wagtail.admin.forms import WagtailAdminPageForm


def missing_citations(stream_value, page_sources, lang):
    """Render the body as the public page would and collect the sources it cites but can't number."""
    from .data import PageData

    data = PageData(blocks=list(stream_value), page_sources=page_sources)
    with translation.override(lang):
        stream_value.render_as_block(context={"page_data": data})
    return data.missing_citations, data.missing_explicit


class TranslatorAwarePageForm(WagtailAdminPageForm):
    """Translators change the Spanish fields of a page and nothing else (see editorial.permissions)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from editorial.permissions import restrict_to_translatable_fields

        if getattr(self, "for_user", None) is not None:
            restrict_to_translatable_fields(self, self.for_user, include_formsets=False)


class ArticlePageForm(TranslatorAwarePageForm):
    def clean(self):
        cleaned = super().clean()
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
            missing, explicit = missing_citations(stream, page_sources, lang)
            # Data-derived markers are optional (a page without a source list shows none);
            # a citation the editor chose must always be numbered.
            missing = (missing if page_sources else set()) | explicit
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
