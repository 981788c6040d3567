"""Find statements typed into prose that a data reference (or a checked statement) could make instead.

A number typed in a paragraph, heading or caption goes stale when the data refreshes while the
tables around it update. The check formats every figure the page's models and sources have
(as the page would print them, per language) and flags typed numbers that equal one of them.
Bare whole numbers are left alone: "ten thousand tokens", "7 hosts" or a year are not figures.
Counts typed in words (typed_counts) and providers named next to ranking words (ranking_claims)
are flagged too, in every text field of the page (prose_fields), in each language.
"""

import re
from dataclasses import dataclass, field
from functools import lru_cache

from django.conf import settings
from django.utils.translation import gettext as _

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
from .prose_fields import (
    CHECKED,
    REFERENCE,
    body_prose,
    page_field_prose,
    rich_text_plain,
    without_checked_statements,
)
from .ranking_claims import RankingClaims
from .typed_counts import (
    HOST_WORDS,
    MODEL_WORDS,
    count_index,
    find_typed_counts,
    model_count_index,
    page_models,
)

__all__ = ["CHECKED", "REFERENCE", "body_texts", "check_page", "rich_text_plain", "without_checked_statements"]

CONTEXT_CHARS = 40


@dataclass
class TypedFigure:
    language: str
    place: str
    typed: str
    figures: list = field(default_factory=list)  # descriptions of the figures it equals
    context: str = ""
    key: str = ""  # where the field sits, the same in both languages (prose_fields.ProseText.key)
    # The same field in the other language ({"language", "place", "text"}): a sentence fixed in one
    # language is usually wrong in the other too. Empty in findings stored before it was recorded.
    counterpart: dict = field(default_factory=dict)

    @property
    def language_name(self):
        return language_name(self.language)

    def message(self):
        # A typed number is a figure to insert as a reference; words ("two of the current models",
        # "tops the ranking") are a claim about the data, to check as a statement (or to reference).
        if any(character.isdigit() for character in self.typed):
            template = _(
                "“%(typed)s” in %(place)s (%(language)s) looks like a figure (%(figures)s): insert it as a reference?"
            )
        else:
            template = _(
                "“%(typed)s” in %(place)s (%(language)s) is a claim about the data (%(figures)s): make it a checked "
                "statement or a data reference?"
            )
        text = template % {
            "typed": self.typed,
            "place": self.place,
            "language": self.language_name,
            "figures": "; ".join(self.figures[:3]) + (" …" if len(self.figures) > 3 else ""),
        }
        if self.counterpart:
            text += " " + self.counterpart_message()
        return text

    def counterpart_message(self):
        if not self.counterpart:
            return ""
        return _("%(language)s counterpart: %(place)s, “%(text)s”.") % {
            "language": language_name(self.counterpart["language"]),
            "place": self.counterpart["place"],
            "text": self.counterpart["text"],
        }


def language_name(code):
    return str(dict(settings.LANGUAGES).get(code, code))


COUNTERPART_CHARS = 120


def with_counterparts(findings, texts):
    """Each finding pointed at the same field in the other languages ({language: {key: ProseText}})."""
    for finding in findings:
        for lang, by_key in texts.items():
            other = by_key.get(finding.key) if lang != finding.language else None
            if other is not None:
                words = " ".join(other.text.replace(REFERENCE, "…").replace(CHECKED, "…").split())
                if len(words) > COUNTERPART_CHARS:
                    words = words[:COUNTERPART_CHARS].rsplit(" ", 1)[0] + " …"
                finding.counterpart = {"language": lang, "place": other.place, "text": words}
                break
    return findings


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


def body_texts(stream):
    """(place, plain text) for every text of a body: what reviews.page_figures re-reads for mentions."""
    for text in body_prose(stream):
        yield text.place, text.text


def check_page(page, languages=None):
    """Typed figures, counts and ranking claims in every text field of a page, per language, each
    pointed at the same field in the other language. Nothing is changed or blocked."""
    languages = languages or [code for code, _name in settings.LANGUAGES]
    findings, texts = [], {}
    for lang in languages:
        blocks_list = list(getattr(page, f"body_{lang}", None) or [])
        prose = [*page_field_prose(page, lang), *body_prose(blocks_list)]
        texts[lang] = {text.key: text for text in prose}
        data = PageData(blocks=with_ref_requirements(blocks_list), page_sources=[])
        # Numbers are read and printed the page language's way; places and figures are described
        # in the editor's language, since the editor reads the warning.
        index = figure_index(data, lang)
        if not index:
            continue
        counts, model_counts = count_index(data), model_count_index(data)
        claims = RankingClaims(data, lang)
        models_measured = len(page_models(data))
        for text in prose:
            # A count of models may be the count of the provider its sentence is about (or its card's).
            def counts_at(position, text=text, claims=claims):
                return claims.counts_at(text.text, position, text.subject, text.metric, text.refs)

            found = [
                *find_typed_figures(text.text, index, lang),
                *find_typed_counts(text.text, counts, lang, HOST_WORDS),
                *find_typed_counts(text.text, model_counts, lang, MODEL_WORDS, part_of=models_measured,
                                   counts_at=counts_at),
                *claims.find(text.text, text.subject, text.metric, text.refs),
            ]
            for typed, figures, context in found:
                findings.append(TypedFigure(lang, text.place, typed, figures, _shown(context), text.key))
    return with_counterparts(findings, texts)


def _shown(context):
    return context.replace(REFERENCE, "…").replace(CHECKED, "…")
