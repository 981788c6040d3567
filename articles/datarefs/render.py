"""Front-end rendering of data references: the stored embed becomes the current figure.

Wagtail's rewriter hands every reference of one rich text to `DatarefEmbedHandler` at once.
Inside an article the paragraph template renders through `render_rich_text`, which makes the
page's PageData available to the handler: values then come from the page's bulk-loaded data
and footnotes from its source list. Elsewhere (a rich text rendered on its own) the handler
resolves the references together and prints no footnote, since nothing numbers the sources.
"""

import logging
from contextvars import ContextVar

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from wagtail.rich_text import EmbedHandler, RichText, expand_db_html

from benchmarks.formatting import DASH

from .refs import EMBED_TYPE, DataRef, InvalidReference
from .resolve import format_resolved, resolve_for_page, resolved_is_stale, stale_flag

log = logging.getLogger(__name__)

_page_data = ContextVar("dataref_page_data", default=None)


def _provenance(resolved):
    from articles.templatetags.article_tags import price_provenance, provenance

    if resolved.measurement is not None:
        return provenance(resolved.measurement)
    return price_provenance(resolved.price)


def render_resolved(resolved, page_data=None, lang=None):
    from articles.templatetags.article_tags import footnotes

    classes = ["dataref"]
    flag = ""
    if resolved.value is None:
        # A dash alone in a sentence reads as punctuation: say that the data has no figure here.
        return missing_reference(resolved.ref.key)
    elif resolved_is_stale(resolved, page_data):
        classes.append("dataref--stale")
        flag = stale_flag(resolved)
    marker = footnotes({"page_data": page_data}, resolved.sources) if page_data is not None else ""
    text = format_resolved(resolved, lang)
    return format_html(
        '<span class="{}" data-dataref="{}" title="{}">{}</span>{}{}{}',
        " ".join(classes),
        resolved.ref.key,
        _provenance(resolved),
        text,
        flag,
        marker,
        _trail_control(resolved, text),
    )


def _trail_control(resolved, text):
    """The same ⓘ button and trail as a table's figures: a title never shows by keyboard or on touch."""
    from articles.figures import Figure
    from articles.templatetags.article_tags import provenance_control

    if resolved.value is None:
        return ""
    behind = tuple(row for row in (resolved.measurement, resolved.compared_with) if row is not None)
    figure = Figure(
        row="", column="", text=str(text), endpoint=resolved.endpoint, metric=resolved.ref.metric,
        measurements=behind, price=resolved.price,
    )
    return mark_safe(render_to_string("articles/includes/provenance_control.html", provenance_control(figure)).strip())


def render_attrs_list(attrs_list, page_data=None, lang=None):
    lang = lang or translation.get_language()
    parsed = []
    for attrs in attrs_list:
        try:
            parsed.append(DataRef.from_attrs(attrs))
        except InvalidReference as error:
            log.warning("unreadable data reference %s: %s", attrs, error)
            parsed.append(None)
    resolved = resolve_for_page([ref for ref in parsed if ref is not None], page_data)
    return [
        render_resolved(resolved[ref.key], page_data, lang)
        if ref is not None
        else missing_reference("")
        for ref in parsed
    ]


def missing_reference(key):
    """What a reference with no figure prints: the dash a table cell has, and in words what it means
    (the table's "Not measured yet"), so a sentence never reads as if the dash were a value."""
    return format_html(
        '<span class="dataref dataref--missing" data-dataref="{}" title="{}">{}</span>'
        ' <span class="missing-flag">{}</span>',
        key, _("The data this page shows has no figure here."), DASH, _("not measured yet"),
    )


class DatarefEmbedHandler(EmbedHandler):
    identifier = EMBED_TYPE

    @classmethod
    def expand_db_attributes_many(cls, attrs_list):
        return render_attrs_list(attrs_list, _page_data.get())

    @classmethod
    def expand_db_attributes(cls, attrs):
        return cls.expand_db_attributes_many([attrs])[0]

    @classmethod
    def extract_references(cls, attrs):
        # Lets Wagtail's "usage" listing of an endpoint or model show the articles quoting it.
        from benchmarks.models import Endpoint, LanguageModel

        try:
            ref = DataRef.from_attrs(attrs)
        except InvalidReference:
            return
        yield LanguageModel, str(ref.model_id), "", ""
        for pk in (ref.endpoint_id, ref.other_id):
            if pk is not None:
                yield Endpoint, str(pk), "", ""


def expand_with_page_data(html, page_data):
    """expand_db_html with the page's data and footnote numbering available to references."""
    token = _page_data.set(page_data)
    try:
        return expand_db_html(html)
    finally:
        _page_data.reset(token)


def statement_policy(page_data):
    """What a false statement prints as on this page: "hide" only where its editor chose so."""
    from articles.statements.markup import HIDE, MARK

    page = getattr(page_data, "page", None)
    return HIDE if getattr(page, "statement_policy", MARK) == HIDE else MARK


def render_rich_text(value, page_data):
    """What `{{ value|richtext }}` renders, with references resolved against the page's data."""
    from articles.statements.markup import render_statements

    source = value.source if isinstance(value, RichText) else (value or "")
    source = render_statements(source, page_data, statement_policy(page_data))
    html = expand_with_page_data(source, page_data)
    return mark_safe(render_to_string("wagtailcore/shared/richtext.html", {"html": html}))  # noqa: S308
