"""Find figures typed into prose that a data reference could print instead.

A number typed in a paragraph, heading or caption goes stale when the data refreshes while the
tables around it update. The check formats every figure the page's models and sources have
(as the page would print them, per language) and flags typed numbers that equal one of them.
Bare whole numbers are left alone: "ten thousand tokens", "7 hosts" or a year are not figures.
"""

import re
from dataclasses import dataclass, field
from functools import lru_cache

from django.conf import settings
from django.utils.html import strip_tags
from django.utils.translation import gettext as _
from wagtail import blocks
from wagtail.rich_text import get_text_for_indexing

from benchmarks.formatting import (
    CURRENCY_SYMBOLS,
    format_duration,
    format_metric,
    format_money,
    format_plain,
    number_format,
)
from benchmarks.metrics import METRICS, TIME

from .data import PageData
from .datarefs.resolve import with_ref_requirements
from .ranking_claims import CHECKED, REFERENCE, RankingClaims

CONTEXT_CHARS = 40


@dataclass
class TypedFigure:
    language: str
    place: str
    typed: str
    figures: list = field(default_factory=list)  # descriptions of the figures it equals
    context: str = ""

    @property
    def language_name(self):
        return str(dict(settings.LANGUAGES).get(self.language, self.language))

    def message(self):
        return _(
            "“%(typed)s” in %(place)s (%(language)s) looks like a figure (%(figures)s): insert it as a reference?"
        ) % {
            "typed": self.typed,
            "place": self.place,
            "language": self.language_name,
            "figures": "; ".join(self.figures[:3]) + (" …" if len(self.figures) > 3 else ""),
        }


def _number_pattern(lang):
    fmt = number_format(lang)
    return _compiled_number_pattern(fmt["thousands"], fmt["decimal"])


@lru_cache(maxsize=8)
def _compiled_number_pattern(thousands, decimal):
    thousands, decimal = re.escape(thousands), re.escape(decimal)
    symbols = "".join(re.escape(s) for s in CURRENCY_SYMBOLS.values())
    return re.compile(
        rf"(?<![\w.,\-/])(?P<currency>[{symbols}])?"
        rf"(?P<number>\d{{1,3}}(?:{thousands}\d{{3}})+(?:{decimal}\d+)?|\d+(?:{decimal}\d+)?)"
        rf"(?P<unit>\s?%|\s?ms\b|×)?"
        rf"(?![\w%]|[.,]\d)"
    )


class FigureIndex:
    """Printed forms of the figures a page could reference -> what each is."""

    def __init__(self, lang):
        self.lang = lang
        self.forms = {}

    def add(self, text, description):
        text = text.replace("\u00a0", " ").strip()
        self.forms.setdefault(text, [])
        if description not in self.forms[text]:
            self.forms[text].append(description)

    def __bool__(self):
        return bool(self.forms)

    def match(self, currency, number, unit):
        unit = (unit or "").strip()
        typed = f"{currency or ''}{number}{' ' + unit if unit == 'ms' else unit}"
        exact = self.forms.get(typed)
        if exact:
            return exact
        # A bare number equals a figure printed with a unit or symbol ("0.90" for "0.90 s").
        if not currency and not unit:
            return self.forms.get(f"#{number}", [])
        return []


def figure_index(data, lang):
    index = FigureIndex(lang)
    for row in data.measurements:
        metric = METRICS.get(row.metric)
        if metric is None:
            continue
        description = f"{row.endpoint.label} · {row.endpoint.model.name} · {metric.label}"
        for text in (format_metric(metric, row.value, lang=lang), format_plain(metric, row.value, lang=lang)):
            index.add(text, description)
            index.add("#" + _bare(text), description)
        if metric.kind == TIME:
            spoken = format_duration(row.value, lang=lang)
            if spoken.endswith(" ms"):
                index.add(spoken, description)
    for price in data.prices.values():
        for side, label in (("input_per_m", _("input price")), ("output_per_m", _("output price"))):
            text = format_money(getattr(price, side), price.currency, lang=lang)
            description = f"{price.endpoint.label} · {price.endpoint.model.name} · {label}"
            index.add(text, description)
            index.add("#" + _bare(text), description)
    return index


def _bare(text):
    """The number alone: "$2.10" -> "2.10", "98.74%" -> "98.74", "1.23 s" -> "1.23"."""
    match = re.search(r"\d[\d.,\u00a0 ]*\d|\d", text)
    return match.group(0) if match else text


def find_typed_figures(text, index, lang):
    """[(typed text, figure descriptions, context)] for one piece of prose."""
    found = []
    text = text.replace("\u00a0", " ")
    for match in _number_pattern(lang).finditer(text):
        currency, number, unit = match.group("currency"), match.group("number"), match.group("unit")
        has_decimals = number_format(lang)["decimal"] in number
        if not (has_decimals or currency or (unit or "").strip()):
            continue
        figures = index.match(currency, number, unit)
        if figures:
            start, end = max(match.start() - CONTEXT_CHARS, 0), min(match.end() + CONTEXT_CHARS, len(text))
            found.append((match.group(0).strip(), figures, text[start:end].strip()))
    return found


DATAREF = re.compile(r"<embed\b[^>]*\bembedtype=\"dataref\"[^>]*/?>", re.IGNORECASE)
# A checked statement: words an editor has tied to the data (<a linktype="statement" …>words</a>).
STATEMENT = re.compile(r"<a\b[^>]*\blinktype=([\"'])statement\1[^>]*>.*?</a>", re.IGNORECASE | re.DOTALL)


def without_checked_statements(html):
    """Rich text with each checked statement's words left out: they are checked already, so neither
    their figures nor their ranking words are flagged. The mark left keeps the words around apart."""
    return STATEMENT.sub(f" {CHECKED} ", html or "")


def rich_text_plain(html):
    """What the check reads of a rich text: its words, a REFERENCE mark where a data reference prints
    a figure (a claim next to one is checked) and a CHECKED mark where a checked statement was."""
    return get_text_for_indexing(DATAREF.sub(f" {REFERENCE} ", without_checked_statements(html)))


def prose_texts(block, value, place):
    """(place, plain text) for every rich text and text field inside a block value."""
    for where, text, _subject in texts_with_subjects(block, value, place):
        yield where, text


def texts_with_subjects(block, value, place, subject=None):
    """(place, plain text, provider the text is about or None) for every text a block value stores,
    whatever the block's nesting. A data reference leaves a REFERENCE mark: what it prints is checked."""
    if value is None:
        return
    if isinstance(block, blocks.RichTextBlock):
        yield place, rich_text_plain(value.source), subject
    elif isinstance(block, blocks.CharBlock | blocks.TextBlock):
        yield place, str(value), subject
    elif isinstance(block, blocks.StreamBlock):
        for n, child in enumerate(value, start=1):
            yield from texts_with_subjects(child.block, child.value, f"{place} › {child.block.label} {n}", subject)
    elif isinstance(block, blocks.StructBlock):
        # A block holding one provider (a card) is about it even where its text never names it.
        provider = value.get("provider") if "provider" in block.child_blocks else None
        subject = getattr(provider, "name", None) or subject
        for name, child_block in block.child_blocks.items():
            yield from texts_with_subjects(child_block, value.get(name), f"{place} › {child_block.label}", subject)
    elif isinstance(block, blocks.ListBlock):
        for n, item in enumerate(value, start=1):
            yield from texts_with_subjects(block.child_block, item, f"{place} {n}", subject)


def page_field_texts(page, lang):
    """(place, plain text) for the page's own text fields in `lang`: a reader sees them in results,
    shares and the page head, where a stale figure is as false as in the body."""
    fields = (
        ("title", _("Title")),
        ("seo_title", _("SEO title")),
        ("search_description", _("Search description")),
        ("summary", _("Summary")),
    )
    for name, place in fields:
        text = getattr(page, f"{name}_{lang}", None)
        if text:
            yield place, strip_tags(without_checked_statements(str(text)))


def body_texts(stream):
    for place, text, _subject in body_texts_with_subjects(stream):
        yield place, text


def body_texts_with_subjects(stream):
    for n, child in enumerate(stream, start=1):
        place = _("%(place)s (block %(n)s)") % {"place": child.block.label, "n": n}
        yield from texts_with_subjects(child.block, child.value, place)


# --- facts typed in words: counts of hosts and claims about who leads --------------------------
NUMBER_WORDS = {
    "en": ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"],
    "es": ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce"],
}
HOST_WORDS = r"(?:hosts?|providers?|endpoints?|proveedor(?:es)?)"
# "two of the current models", "tres modelos actuales", "dos de los modelos".
MODEL_WORDS = r"(?:(?:of|de)\s+(?:the|l[oa]s)\s+)?(?:\w+\s+)?(?:models?|modelos?)"


def count_index(data):
    """{number of endpoints measured: [what it counts]} for the models and sources the page shows."""
    counts = {}
    for (_model_id, _source_id), endpoints in data._endpoints.items():
        if not endpoints:
            continue
        model = endpoints[0].model
        counts.setdefault(len(endpoints), set()).add(_("%(model)s · hosts measured") % {"model": model.name})
    return {n: sorted(descriptions) for n, descriptions in counts.items()}


def model_count_index(data):
    """{number of models the page's data measures: [what it counts]}."""
    models = {row.endpoint.model_id for row in data.measurements}
    # "one model" on a page about one model is its subject, not a count that can go stale.
    return {len(models): [_("models measured on this page")]} if len(models) > 1 else {}


def find_typed_counts(text, counts, lang, nouns=HOST_WORDS):
    words = NUMBER_WORDS.get(lang, NUMBER_WORDS["en"])
    pattern = rf"\b(?P<n>\d{{1,2}}|{'|'.join(words)})\s+(?:\w+\s+)?{nouns}\b"
    found = []
    for match in re.finditer(pattern, text, flags=re.IGNORECASE):
        raw = match.group("n").lower()
        number = int(raw) if raw.isdigit() else words.index(raw)
        if number in counts:
            start, end = max(match.start() - CONTEXT_CHARS, 0), min(match.end() + CONTEXT_CHARS, len(text))
            found.append((match.group(0), counts[number], text[start:end].strip()))
    return found


def check_page(page, languages=None):
    """Typed figures in a page's body (and summary), per language. Nothing is changed or blocked."""
    findings = []
    for lang in languages or [code for code, _name in settings.LANGUAGES]:
        stream = getattr(page, f"body_{lang}", None)
        blocks_list = list(stream or [])
        data = PageData(blocks=with_ref_requirements(blocks_list), page_sources=[])
        # Numbers are read and printed the page language's way; places and figures are described
        # in the editor's language, since the editor reads the warning.
        index = figure_index(data, lang)
        if not index:
            continue
        texts = [(place, text, None) for place, text in page_field_texts(page, lang)]
        texts += body_texts_with_subjects(blocks_list)
        counts, model_counts = count_index(data), model_count_index(data)
        claims = RankingClaims(data, lang)
        for place, text, subject in texts:
            for typed, figures, context in find_typed_figures(text, index, lang):
                findings.append(TypedFigure(lang, place, typed, figures, context))
            for typed, figures, context in find_typed_counts(text, counts, lang):
                findings.append(TypedFigure(lang, place, typed, figures, context))
            for typed, figures, context in find_typed_counts(text, model_counts, lang, MODEL_WORDS):
                findings.append(TypedFigure(lang, place, typed, figures, context))
            for typed, figures, context in claims.find(text, subject):
                findings.append(TypedFigure(lang, place, typed, figures, context))
    return findings
