"""Counts typed in words: "Seven hosts", "four models", "two of the three current models".

A count of the hosts or models a page measures goes stale when a source adds or drops a row, while
the tables update. Every typed count of two or more hosts or models is flagged: with what
it counts when it equals one the page's data gives (hosts per model, models measured, current
models, or how many models a provider named in the text is measured on or leads), as a part of
those measured ("two of the current models": only the data can say which part), and otherwise as a
count the data does not give ("Eight hosts" where six are measured is the stale count itself).
"""

import re

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

NUMBER_WORDS = {
    "en": ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"],
    "es": ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce"],
}
HOST_WORDS = r"(?:hosts?|providers?|endpoints?|proveedor(?:es)?)"
MODEL_WORDS = r"(?:models?|modelos?)"
CONTEXT_CHARS = 40
# "Two endpoints" is how methodology speaks of any pair compared; hosts and models are what a page counts.
ENDPOINT_NOUN = re.compile(r"\bendpoints?\b", re.IGNORECASE)
# What the data does count, shown beside a typed count it does not give: a few, not every model's.
MAX_SHOWN_COUNTS = 4


def count_index(data):
    """{number of endpoints measured: [what it counts]} for the models and sources the page shows."""
    counts = {}
    for (_model_id, _source_id), endpoints in data._endpoints.items():
        if not endpoints:
            continue
        model = endpoints[0].model
        counts.setdefault(len(endpoints), set()).add(_("%(model)s · hosts measured") % {"model": model.name})
    return {n: sorted(descriptions) for n, descriptions in counts.items()}


def page_models(data):
    return list({row.endpoint.model_id: row.endpoint.model for row in data.measurements}.values())


def model_count_index(data):
    """{number of models the page's data measures: [what it counts]}, the current ones (not kept as a
    baseline) counted apart: "the three current models" on a page with a fourth, older one."""
    models = page_models(data)
    counts = {}
    # "one model" on a page about one model is its subject, not a count that can go stale.
    if len(models) > 1:
        counts[len(models)] = [_("models measured on this page")]
    current = [model for model in models if not model.is_baseline]
    if 1 < len(current) < len(models):
        counts.setdefault(len(current), []).append(_("current models measured on this page"))
    return counts


def provider_model_counts(ranks, names, tests=(), leads=None):
    """{n: [what it counts]} of the models each named provider is measured on or leads, from
    ranking_claims.RankingClaims.ranks: "Baseten leads two of the current models" is about Baseten.

    `tests` keep only the metrics the sentence compares (none: every metric); `leads` True counts
    only leads, False only models measured, None both: a sentence about leading is not evidenced by
    how many models a provider is measured on, nor by its leads in another metric."""
    counts = {}
    # Counts of one are left out: "inside one model" is how a sentence speaks, rarely a count.
    for name in dict.fromkeys(names):
        measured, led = set(), {}
        for rank in ranks.get(name, []):
            if tests and not any(test(rank.metric) for test in tests):
                continue
            measured.add(rank.model)
            if rank.position == 1:
                led.setdefault(str(rank.metric.label), set()).add(rank.model)
        if leads is not True:
            counts.setdefault(len(measured), []).append(
                ngettext("%(name)s · measured on %(count)s model", "%(name)s · measured on %(count)s models",
                         len(measured)) % {"name": name, "count": len(measured)})
        if leads is False:
            continue
        for metric, models in sorted(led.items()):
            counts.setdefault(len(models), []).append(
                ngettext("%(name)s · leads %(metric)s on %(count)s model",
                         "%(name)s · leads %(metric)s on %(count)s models", len(models))
                % {"name": name, "metric": metric, "count": len(models)})
    return {n: descriptions for n, descriptions in counts.items() if n > 1}


def merged(*indexes):
    counts = {}
    for index in indexes:
        for n, descriptions in index.items():
            counts.setdefault(n, []).extend(d for d in descriptions if d not in counts.get(n, []))
    return counts


def find_typed_counts(text, counts, lang, nouns=HOST_WORDS, part_of=0, counts_at=None):
    """[(typed, what it counts, context)]. "N of the M … nouns" is one count: flagged when either
    number is a count of the page. With `part_of` (the models measured), a count from 2 up to it is
    flagged too, as a part of them. `counts_at(position)` adds the counts of what the sentence at
    that position is about (RankingClaims.counts_at: its provider's, in its metric)."""
    words = NUMBER_WORDS.get(lang, NUMBER_WORDS["en"])
    number = rf"\d{{1,2}}|{'|'.join(words)}"
    pattern = (
        rf"(?<![\w.,\-])(?P<n>{number})\s+(?:(?:of|de)\s+(?:the|l[oa]s)\s+(?:(?P<m>{number})\s+)?)?"
        rf"(?:[\w-]+\s+)?{nouns}\b"
    )
    found = []
    for match in re.finditer(pattern, text, flags=re.IGNORECASE):
        numbers = [_number(match.group(name), words) for name in ("n", "m") if match.group(name)]
        here = merged(counts, counts_at(match.start())) if counts_at else counts
        what = [d for n in numbers for d in here.get(n, [])]
        if not what and part_of and any(2 <= n <= part_of for n in numbers):
            what = [_("a part of the %(count)s models measured on this page") % {"count": part_of}]
        if not what and any(n >= 2 for n in numbers) and not ENDPOINT_NOUN.search(match.group(0)):
            # A count the data does not give is already false (or about something the page does not
            # show): flagged all the same, with the counts the data does give beside it.
            what = [_("a count of hosts or models the page's data does not give")]
            what += [d for n in sorted(here) for d in here[n]][:MAX_SHOWN_COUNTS]
        if what:
            start, end = max(match.start() - CONTEXT_CHARS, 0), min(match.end() + CONTEXT_CHARS, len(text))
            found.append((match.group(0), list(dict.fromkeys(what)), text[start:end].strip()))
    return found


def _number(raw, words):
    raw = raw.lower()
    return int(raw) if raw.isdigit() else words.index(raw)
