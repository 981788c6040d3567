"""A source's title as readers see it: pages print "publisher · title" (Source.__str__), so the form
shows that line as the editor types and refuses a title that already begins with the publisher
("openbenchmarks-labs · openbenchmarks-labs · …")."""

import re

from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from wagtail.admin.panels import Panel

from .choosers import SpanishOptionalForm

SEPARATOR = " · "


def reader_title(publisher, title):
    return SEPARATOR.join(part for part in ((publisher or "").strip(), (title or "").strip()) if part)


def starts_with_publisher(title, publisher):
    publisher = (publisher or "").strip()
    # A whole-word match: "Groq" refuses "Groq pricing", not "Groqing".
    return bool(publisher) and re.match(rf"{re.escape(publisher)}(?!\w)", (title or "").strip(), re.IGNORECASE)


class SourceForm(SpanishOptionalForm):
    def clean(self):
        cleaned = super().clean()
        publisher = cleaned.get("publisher")
        title = cleaned.get("title_en")
        if "title_en" in self.fields and starts_with_publisher(title, publisher):
            self.add_error(
                "title_en",
                _(
                    "Readers see the publisher before the title (“%(publisher)s · …”): leave “%(publisher)s” "
                    "out of the title."
                )
                % {"publisher": publisher.strip()},
            )
        return cleaned


class ReaderTitlePanel(Panel):
    """The composed title, read-only, kept up to date by source_title.js."""

    class BoundPanel(Panel.BoundPanel):
        class Media:
            js = ["benchmarks/js/source_title.js"]

        def render_html(self, parent_context=None):
            form = self.form
            publisher = form["publisher"].value() if "publisher" in form.fields else ""
            title = form["title_en"].value() if "title_en" in form.fields else ""
            return format_html(
                '<div class="w-field__wrapper source-reader-title" data-source-reader-title '
                'data-separator="{}"><p class="w-field__label">{}</p>'
                '<output for="id_publisher id_title_en" aria-live="polite">{}</output></div>',
                SEPARATOR,
                _("Title as readers see it"),
                reader_title(publisher, title),
            )
