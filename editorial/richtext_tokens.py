"""Rich text as translators see it: data references and link targets become tokens they cannot break.

A live figure (`<embed embedtype="dataref" …/>`) shows as ``{1}``, ``{2}``…; a link's opening tag
(whose target may be a page id) shows as ``<a id="a1">``. The translation must keep every token of
the English exactly once and may use only simple inline markup; `restore` puts the English
elements back, so a translation can move a figure or a link but never change what it points at.
"""

import re
from html.parser import HTMLParser

from django.utils.translation import gettext as _

EMBED = re.compile(r"<embed\b[^>]*/?>", re.IGNORECASE)
LINK_OPEN = re.compile(r"<a\b[^>]*>", re.IGNORECASE)
FIGURE_TOKEN = re.compile(r"\{(\d+)\}")
LINK_TOKEN = re.compile(r'<a id="(a\d+)">')
ALLOWED_TAGS = {"p", "b", "i", "strong", "em", "a", "br", "ul", "ol", "li", "h3", "code"}
VOID_TAGS = {"br"}


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


class _Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems = []
        self.stack = []

    def handle_starttag(self, tag, attrs):
        if tag not in ALLOWED_TAGS:
            self.problems.append(_("the tag <%(tag)s> is not allowed") % {"tag": tag})
            return
        names = [name for name, _value in attrs]
        if (tag == "a" and names != ["id"]) or (tag != "a" and names):
            self.problems.append(_("<%(tag)s> may not carry attributes here") % {"tag": tag})
        if tag not in VOID_TAGS:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        if tag not in VOID_TAGS:
            self.problems.append(_("the tag <%(tag)s/> is not allowed") % {"tag": tag})

    def handle_endtag(self, tag):
        if tag in VOID_TAGS:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(_("</%(tag)s> does not close the last open tag") % {"tag": tag})
            return
        self.stack.pop()


def check(translation, elements):
    """Problems with a translated rich text (empty list: fine)."""
    problems = []
    figures = {f"{{{n}}}" for n in FIGURE_TOKEN.findall(translation)}
    links = {f'<a id="{n}">' for n in LINK_TOKEN.findall(translation)}
    expected = set(elements)
    for token in sorted(expected):
        if translation.count(token) != 1:
            problems.append(_("keep %(token)s exactly once") % {"token": token})
    for token in sorted((figures | links) - expected):
        problems.append(_("%(token)s is not in the English text") % {"token": token})
    checker = _Checker()
    checker.feed(translation)
    checker.close()
    problems += checker.problems
    if checker.stack:
        problems.append(_("<%(tag)s> is never closed") % {"tag": checker.stack[-1]})
    return problems


def restore(translation, elements):
    """The stored rich text of a checked translation: each token back to its English element."""
    text = translation
    for token, element in elements.items():
        text = text.replace(token, element)
    if text.strip() and not text.lstrip().startswith("<"):
        text = f"<p>{text.strip()}</p>"
    return text
