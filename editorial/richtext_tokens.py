"""Rich text as translators see it: data references and link targets become tokens they cannot break.

A live figure (`<embed embedtype="dataref" …/>`) shows as ``{1}``, ``{2}``…; a link's opening tag
(whose target may be a page id) shows as ``<a id="a1">``. The translation must keep every token of
the English exactly once and may use only simple inline markup; `restore` puts the English
elements back, so a translation can move a figure or a link but never change what it points at.
"""

import re

from django.utils.translation import gettext as _

from . import sanitize

EMBED = re.compile(r"<embed\b[^>]*/?>", re.IGNORECASE)
LINK_OPEN = re.compile(r"<a\b[^>]*>", re.IGNORECASE)
FIGURE_TOKEN = re.compile(r"\{(\d+)\}")
LINK_TOKEN = re.compile(r'<a id="(a\d+)">')
ALLOWED_TAGS = sanitize.ALLOWED_TAGS


class TokenError(ValueError):
    pass


def tokenize(html):
    """(text with tokens, {token: English element}) for a stored rich text value."""
    elements = {}
    counter = {"figure": 0, "link": 0}

    def figure(match):
        counter["figure"] += 1
        token = f"{{{counter['figure']}}}"
        elements[token] = match.group(0)
        return token

    def link(match):
        counter["link"] += 1
        token = f'<a id="a{counter["link"]}">'
        elements[token] = match.group(0)
        return token

    text = LINK_OPEN.sub(link, EMBED.sub(figure, html or ""))
    return text, elements


def _markup_messages(translation):
    messages = {
        "tag": _("the tag <%(tag)s> is not allowed"),
        "attributes": _("<%(tag)s> may not carry attributes here"),
        "unclosed": _("a tag is never closed"),
        "stray-end": _("</%(tag)s> does not close the last open tag"),
    }
    return [messages[kind] % {"tag": tag} for kind, tag in sanitize.markup_problems(translation)]


def check(translation, elements):
    """Problems with a translated rich text (empty list: fine)."""
    problems = []
    # Counted in what would be stored: a token inside a comment or a removed element is lost.
    kept = sanitize.clean_fragment(translation)
    figures = {f"{{{n}}}" for n in FIGURE_TOKEN.findall(kept)}
    links = {f'<a id="{n}">' for n in LINK_TOKEN.findall(kept)}
    expected = set(elements)
    for token in sorted(expected):
        if kept.count(token) != 1:
            problems.append(_("keep %(token)s exactly once") % {"token": token})
    for token in sorted((figures | links) - expected):
        problems.append(_("%(token)s is not in the English text") % {"token": token})
    return problems + _markup_messages(translation)


def restore(translation, elements):
    """The stored rich text of a checked translation: what the allow-list serializer writes of it
    (editorial.sanitize), with each token back to its English element."""
    link_ids = {match for token in elements for match in LINK_TOKEN.findall(token)}
    text = sanitize.clean_fragment(translation, link_ids=link_ids)
    for token, element in elements.items():
        text = text.replace(token, element)
    if text.strip() and not text.lstrip().startswith("<"):
        text = f"<p>{text.strip()}</p>"
    return text


def stored_translation(spanish, english):
    """A stored Spanish rich text cleaned again before it is stored elsewhere or reaches a page: the
    English text's own figures and link targets kept, everything else as the serializer writes it."""
    return sanitize.clean_keeping(spanish, tokenize(english)[1].values())
