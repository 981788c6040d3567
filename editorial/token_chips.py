"""Tokens as translators read them: a labelled chip naming the figure or link a token stands for.

A bare ``{1}`` does not tell a host count from a leader's name, so each figure token is labelled with
the data reference's own description (articles.datarefs: the editor's token label) and each link
token with where it points. The English column shows the rich text (sanitized) with those chips; the
editor (static/editorial/workspace_editor.js) builds the same chips from `labels`.
"""

import json
import re

from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from wagtail.rich_text.rewriters import extract_attrs

from . import sanitize
from .richtext_tokens import FIGURE_TOKEN, LINK_TOKEN

EMBED_ATTRS = re.compile(r"<embed\b([^>]*?)/?>", re.IGNORECASE)
LINK_ATTRS = re.compile(r"<a\b([^>]*)>", re.IGNORECASE)


def figure_label(element):
    """The data reference's description ("GLM-5.3 · leader on output speed"), or a plain word."""
    from articles.datarefs.editor import token
    from articles.datarefs.refs import EMBED_TYPE, DataRef, InvalidReference

    match = EMBED_ATTRS.match(element)
    attrs = extract_attrs(match.group(1)) if match else {}
    if attrs.get("embedtype") != EMBED_TYPE:
        return _("embedded element")
    try:
        return str(token(DataRef.from_attrs(attrs))[1])
    except InvalidReference:
        return _("figure")


def link_label(element):
    match = LINK_ATTRS.match(element)
    attrs = extract_attrs(match.group(1)) if match else {}
    if attrs.get("linktype") == "statement":
        # The translator keeps the token whole: the Spanish words carry the English conditions.
        from articles.statements.conditions import Claim, InvalidCondition
        from articles.statements.describe import describe_claim

        try:
            conditions = describe_claim(Claim.parse(attrs.get("cond")))
        except InvalidCondition as error:
            conditions = str(error)
        return _("checked statement: %(conditions)s") % {"conditions": conditions}
    if attrs.get("linktype") == "page":
        from wagtail.models import Page

        page = Page.objects.filter(pk=attrs.get("id") or 0).first()
        return _("link to %(target)s") % {"target": page.title if page else attrs.get("id")}
    return _("link to %(target)s") % {"target": attrs.get("href", "")}


def labels(elements):
    """{token name: label}: "1" for the figure {1}, "a1" for the link <a id="a1">."""
    found = {}
    for token, element in elements.items():
        figure = FIGURE_TOKEN.fullmatch(token)
        if figure:
            found[figure.group(1)] = figure_label(element)
            continue
        link = LINK_TOKEN.fullmatch(token)
        if link:
            found[link.group(1)] = link_label(element)
    return found


def labels_json(found):
    return json.dumps(found, ensure_ascii=False)


def chip(number, label):
    return format_html(
        '<span class="token-chip" contenteditable="false" data-token="{}" title="{{{}}}">{}</span>',
        number, number, label,
    )


def with_chips(tokenized, found):
    """HTML of a tokenized rich text: the translation allow-list's markup, figures as chips, link tokens
    as links that go nowhere (their target is named in their title)."""
    html = sanitize.clean_fragment(tokenized)

    def figure(match):
        number = match.group(1)
        return chip(number, found[number]) if number in found else match.group(0)

    def link(match):
        name = match.group(1)
        return f'<a class="token-link" data-token="{name}" title="{escape(found.get(name, ""))}">'

    return mark_safe(LINK_TOKEN.sub(link, FIGURE_TOKEN.sub(figure, html)))
