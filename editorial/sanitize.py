"""Rich text that people submit outside Wagtail's own editor, as it may be stored.

Wagtail's editor stores only what its converter writes. Every other way rich text reaches the
database (the translation workspace, approval, translation memories started from stored Spanish,
any import or API) goes through here: the text is parsed by an HTML5 parser (browsers' rules, so
`<!-->` is an empty comment followed by markup, exactly as a reader's browser sees it) and only what
the allow-list serializer (nh3, the Python binding of the Rust `ammonia` sanitizer) writes is kept.
Comments are dropped. A translation's figures and link targets are never the translator's: they are
the English text's own elements, put back after the cleaning (editorial.richtext_tokens).

Why nh3: it is maintained, parses with html5ever (the HTML5 tree builder of Servo) and serializes
from the tree, so no submitted byte is copied through as typed. html5lib (pure Python, same HTML5
algorithm) reads the text once more only to tell the translator what was refused and why.
"""

import re
import secrets

import html5lib
import nh3

# What a translator may write around the tokens: simple inline markup, lists and a sub-heading.
ALLOWED_TAGS = frozenset({"p", "b", "i", "strong", "em", "a", "br", "ul", "ol", "li", "h3", "code"})
LINK_TOKEN_ID = re.compile(r"a\d+\Z")


def _link_ids(kept=None):
    """The attribute filter: the one attribute a translator's markup may carry is the id of a link
    token (<a id="a1">), or, with `kept`, only one of those ids."""

    def only_link_token_ids(tag, attribute, value):
        if tag == "a" and attribute == "id" and LINK_TOKEN_ID.match(value) and (kept is None or value in kept):
            return value
        return None

    return only_link_token_ids


def clean_fragment(text, link_ids=None):
    """`text` as nh3 serializes it with the translation allow-list: no comments, no other tag, no
    attribute but a link token's id (one of `link_ids`, when given), <script>/<style> removed with
    their content."""
    return nh3.clean(
        text or "",
        tags=set(ALLOWED_TAGS),
        attributes={"a": {"id"}},
        attribute_filter=_link_ids(link_ids),
        strip_comments=True,
        link_rel=None,
        url_schemes=set(),
    )


def clean_keeping(text, elements):
    """`text` cleaned by `clean_fragment`, except for `elements` (exact strings: the English text's
    live figures and link opening tags, which a translation keeps as they are), which stay verbatim
    where `text` contains them. Anything else — a forged `<a href>`, an `<embed>` the English does not
    have, an event handler — is gone. Idempotent: cleaning a cleaned text changes nothing."""
    if not text:
        return text or ""
    placeholders = {}
    # Placeholders nobody can have typed, so the English elements go back only where they were.
    nonce = secrets.randbelow(10**12) + 10**12
    # Longest first: one element's text may contain another's.
    for number, element in enumerate(sorted(set(elements), key=len, reverse=True), start=1):
        if element not in text:
            continue
        # A placeholder the serializer writes back unchanged: a link token for a link's opening tag
        # (so its closing </a> still pairs), a bare word for a figure.
        link = element.lower().startswith("<a")
        placeholder = f'<a id="a{nonce}{number}">' if link else f"{{{nonce}{number}}}"
        placeholders[placeholder] = element
        text = text.replace(element, placeholder)
    kept_ids = {placeholder[7:-2] for placeholder in placeholders if placeholder.startswith("<a")}
    cleaned = clean_fragment(text, link_ids=kept_ids)
    for placeholder, element in placeholders.items():
        cleaned = cleaned.replace(placeholder, element)
    return cleaned


# --- telling the translator what is refused ---------------------------------------------------------

def _name(tag):
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def markup_problems(text):
    """[(kind, tag)] for what the translation allow-list refuses in `text`, read as a browser reads it:
    ("tag", name) for an element not allowed, ("attributes", name) for an allowed element carrying
    attributes it may not, ("unclosed", "") and ("stray-end", name) for tags that do not pair up."""
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=False)
    fragment = parser.parseFragment(text or "", container="div")
    problems = []
    for element in fragment.iter():
        tag = element.tag
        if not isinstance(tag, str) or tag == "DOCUMENT_FRAGMENT":
            continue  # a comment: dropped when stored
        name = _name(tag)
        if tag != name or name not in ALLOWED_TAGS:  # a namespaced tag is SVG or MathML content
            problems.append(("tag", name))
            continue
        attributes = dict(element.attrib)
        if name == "a":
            allowed = set(attributes) == {"id"} and LINK_TOKEN_ID.match(attributes["id"])
        else:
            allowed = not attributes
        if not allowed:
            problems.append(("attributes", name))
    for _position, code, data in parser.errors:
        if code == "expected-closing-tag-but-got-eof":
            problems.append(("unclosed", ""))
        elif code in ("unexpected-end-tag", "end-tag-too-early") and data.get("name") in ALLOWED_TAGS:
            problems.append(("stray-end", data["name"]))
    return list(dict.fromkeys(problems))
