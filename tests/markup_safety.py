"""Filter-evasion vectors a translator might type, and a browser's reading of the page they reach.

The vectors are the classic tricks that get markup past a checker that reads HTML differently from a
browser: comment forms HTML5 ends early (`<!-->`, `--!>`), foreign content (SVG, MathML) where
`<style>` holds markup, raw-text elements (`<noscript>`, `<template>`, `<textarea>`, `<title>`),
closing the paragraph to add a `<meta http-equiv=refresh>`, `javascript:` URLs hidden by entities
or white space, and attributes on allowed tags. Sources: the OWASP XSS filter evasion cheat sheet,
the DOMPurify mutation-XSS test cases and PortSwigger's XSS cheat sheet (comment and foreign
content sections).

A page is read with html5lib, which builds the tree by the HTML5 algorithm as browsers do.
"""

import re

import html5lib

# The address the injected redirects and forms point at: nothing listens there.
ELSEWHERE = "http://127.0.0.1:8376/phish"

VECTORS = {
    "comment-dash-gt": '<!--><img src=x onerror=alert(719)>-->',
    "comment-bang-gt": "<!--!><img src=x onerror=alert(11)>-->",
    "comment-closed-by-bang": "<!-- x --!><img src=x onerror=alert(12)>",
    "comment-meta-refresh": f'<!--><meta http-equiv="refresh" content="2;url={ELSEWHERE}">-->',
    "paragraph-closed-meta": f'</p><meta http-equiv="refresh" content="2;url={ELSEWHERE}"><p>',
    "svg-unclosed-script": "<svg><script>alert(13)</script>",
    "svg-style": "<svg><style><img src=x onerror=alert(14)></style></svg>",
    "math-style": "<math><mi><style><img src=x onerror=alert(15)></style></mi></math>",
    "math-mglyph": "<math><mtext><table><mglyph><style><img src=x onerror=alert(16)>",
    "noscript-title": '<noscript><p title="</noscript><img src=x onerror=alert(17)>">',
    "template": "<template><img src=x onerror=alert(18)></template>",
    "style-element": "<style>*{background:url(javascript:alert(19))}</style>",
    "textarea-breakout": "</textarea><img src=x onerror=alert(20)>",
    "title-breakout": "</title><img src=x onerror=alert(21)>",
    "href-entity-javascript": '<a id="a1" href="jav&#x61;script:alert(22)">x</a>',
    "href-split-javascript": '<a id="a1" href="java\tscr\nipt:alert(23)">x</a>',
    "href-colon-entity": '<a id="a1" href=" javascript&colon;alert(24)">x</a>',
    "event-on-allowed-tag": '<b onmouseover="alert(25)">x</b>',
    "style-on-allowed-tag": '<p style="background:url(javascript:alert(26))">x</p>',
    "event-on-link-token": '<a id="a1" onclick="alert(27)">x</a>',
    "iframe-srcdoc": '<iframe srcdoc="&lt;script&gt;alert(28)&lt;/script&gt;"></iframe>',
    "base": f'<base href="{ELSEWHERE}/">',
    "form": f'<form action="{ELSEWHERE}"><button>x</button></form>',
    "object": '<object data="javascript:alert(29)"></object>',
    "forged-figure": '<embed embedtype="dataref" model="1" metric="output_speed_median"/>',
    "cdata": "<![CDATA[><img src=x onerror=alert(30)>]]>",
    "processing-instruction": "<?xml ><img src=x onerror=alert(31)>?>",
}

# What a translation may add to a page: the workspace's allow-list, without attributes.
ALLOWED = {"p", "b", "i", "strong", "em", "a", "br", "ul", "ol", "li", "h3", "code"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "data", "xlink:href", "srcdoc", "background"}


def _tree(html_text):
    return html5lib.parse(html_text, treebuilder="etree", namespaceHTMLElements=False)


def _name(tag):
    return tag.rsplit("}", 1)[-1]


def shapes(html_text):
    """{(tag, attribute names)} of every element of a page as a browser builds it."""
    return {
        (_name(element.tag), tuple(sorted(element.attrib)))
        for element in _tree(html_text).iter()
        if isinstance(element.tag, str)
    }


def dangers(html_text):
    """What on a page could run script or send the reader elsewhere, as a browser reads it."""
    found = []
    for element in _tree(html_text).iter():
        if not isinstance(element.tag, str):
            continue
        tag = _name(element.tag)
        for name, value in element.attrib.items():
            name = _name(name).lower()
            if name.startswith("on"):
                found.append(f"<{tag} {name}>")
            squeezed = re.sub(r"[\x00-\x20]+", "", value or "").lower()
            if name in URL_ATTRIBUTES and squeezed.startswith(("javascript:", "vbscript:", "data:text/html")):
                found.append(f"<{tag} {name}={value!r}>")
            if ELSEWHERE in (value or ""):
                found.append(f"<{tag} {name}={value!r}>")
        if tag == "meta" and "http-equiv" in element.attrib:
            found.append(f"<meta http-equiv={element.attrib['http-equiv']!r}>")
        if tag in {"base", "iframe", "object", "embed", "template", "math"}:
            found.append(f"<{tag}>")
    return found


def injected(page_html, baseline_html):
    """Element shapes on the page that its baseline (the same page before any translation) did not have
    and that the allow-list does not allow, plus anything dangerous the page has."""
    new = shapes(page_html) - shapes(baseline_html)
    return sorted(f"<{tag} {' '.join(attributes)}>".replace(" >", ">") for tag, attributes in new
                  if not (tag in ALLOWED and not attributes)) + dangers(page_html)
