"""Statements in stored rich text: finding them, and what a page prints for each.

The stored element is `<a linktype="statement" cond="…">words</a>` (see conditions.py). Before
Wagtail expands a rich text, each statement is replaced by what the page's policy prints for it:
the words as they are while the claim holds; the words marked, with the date and the figures
that broke it, under "mark"; under "hide", nothing of the sentence it sits in (sentences.py: a
statement covering part of a sentence takes the whole sentence with it). "Hold" renders the whole
page from the data as of the last moment its statements held (articles.statements.hold), so there
the words print as they are, or marked if even that data does not bear them out.
"""

import logging
import re

from django.template.loader import render_to_string
from django.utils.html import strip_tags
from wagtail.rich_text.rewriters import extract_attrs

from .conditions import LINK_TYPE, Claim, InvalidCondition
from .sentences import drop_marked_sentences, wrap

log = logging.getLogger(__name__)

MARK, HIDE, HOLD = "mark", "hide", "hold"
FIND_STATEMENT = re.compile(r"<a\b([^>]*)>(.*?)</a>", re.IGNORECASE | re.DOTALL)


def _statement_attrs(match):
    attrs = extract_attrs(match.group(1))
    return attrs if attrs.get("linktype") == LINK_TYPE else None


def statements_in_html(html):
    """[(claim or None when unreadable, words as plain text)] in one stored rich text, in order."""
    found = []
    for match in FIND_STATEMENT.finditer(html or ""):
        attrs = _statement_attrs(match)
        if attrs is None:
            continue
        try:
            claim = Claim.parse(attrs.get("cond"))
        except InvalidCondition:
            claim = None
        found.append((claim, strip_tags(match.group(2)).strip()))
    return found


def has_statements(html):
    """Whether a stored rich text may hold a statement (cheap: most texts hold none)."""
    return f'linktype="{LINK_TYPE}"' in (html or "")


def render_statements(html, page_data, policy=MARK):
    """The stored rich text with each statement replaced by what the page prints for it."""
    from .evaluate import evaluate

    if not has_statements(html):
        return html

    def replace(match):
        attrs = _statement_attrs(match)
        if attrs is None:
            return match.group(0)
        words = match.group(2)
        try:
            claim = Claim.parse(attrs.get("cond"))
        except InvalidCondition as error:
            log.warning("unreadable statement condition %r: %s", attrs.get("cond"), error)
            claim, outcome = None, None
        else:
            outcome = evaluate(claim, page_data)
        if outcome is not None and outcome.holds:
            return f'<span class="statement" data-statement="{claim.key}">{words}</span>'
        if policy == HIDE:
            return wrap(words)  # dropped below, with its sentence
        return render_to_string(
            "articles/includes/statement_marked.html",
            {"words": words, "key": claim.key if claim else "", "outcome": outcome},
        ).strip()

    rendered = FIND_STATEMENT.sub(replace, html)
    return drop_marked_sentences(rendered) if policy == HIDE else rendered


BLOCK_BREAK = re.compile(r"</?(?:p|div|li|ul|ol|h[1-6]|blockquote|br|hr)\b[^>]*>", re.IGNORECASE)
DATAREF_EMBED = re.compile(r"<embed\b([^>]*?)/?>", re.IGNORECASE)


def checked_plain_text(html, page_data):
    """Plain text of a rich text whose false statements are left out with their sentences (a meta
    description, a listing, FAQ JSON-LD, an accessible name), its data references printed as the
    page prints them: the figure, and its stale mark and date when it has one."""
    import html as html_module

    text = render_statements(html or "", page_data, HIDE)
    text = _references_as_text(text, page_data)
    text = BLOCK_BREAK.sub(" ", text)  # "One.</p><p>Two." is two sentences, not "One.Two."
    return " ".join(html_module.unescape(strip_tags(text)).split())


def _references_as_text(html, page_data):
    """Each data reference's <embed/> replaced by its printed figure (escaped: the caller strips tags)."""
    from django.utils.html import escape
    from django.utils.translation import get_language

    from articles.datarefs.refs import EMBED_TYPE, DataRef, InvalidReference
    from articles.datarefs.resolve import (
        DASH,
        format_resolved,
        resolve_for_page,
        resolved_is_stale,
        stale_flag,
    )

    found = []
    for match in DATAREF_EMBED.finditer(html):
        attrs = extract_attrs(match.group(1))
        if attrs.get("embedtype") != EMBED_TYPE:
            continue
        try:
            found.append((match, DataRef.from_attrs(attrs)))
        except InvalidReference:
            found.append((match, None))
    if not found:
        return html
    resolved = resolve_for_page([ref for _match, ref in found if ref is not None], page_data)
    lang = get_language()
    pieces, end = [], 0
    for match, ref in found:
        if ref is None:
            text = DASH
        else:
            figure = resolved[ref.key]
            text = format_resolved(figure, lang)
            if figure.value is not None and resolved_is_stale(figure, page_data):
                flag = " ".join(strip_tags(stale_flag(figure)).split())
                text = f"{text} ({flag})"
        pieces += [html[end:match.start()], escape(text)]
        end = match.end()
    return "".join(pieces + [html[end:]])


def evidence_lines(outcome):
    """One line per figure that decided a false claim: who, which model, what, how much, from where."""
    from benchmarks.formatting import format_metric, format_money

    lines = []
    for row in outcome.evidence if outcome is not None else ():
        endpoint = row.endpoint
        if hasattr(row, "metric_definition"):  # a measurement
            metric = row.metric_definition
            figure = f"{metric.label}: {format_metric(metric, row.value)}"
            source = row.snapshot.source
        else:  # a price: the side the failed condition compared
            side = "input_per_m" if all(c.metric == "price_input" for c in outcome.failed) else "output_per_m"
            figure = format_money(getattr(row, side), row.currency)
            source = row.source
        lines.append({"text": f"{endpoint.label} · {endpoint.model.name} · {figure}", "source": source})
    return lines
