"""Ranking claims typed in prose: a provider named next to "leads", "fastest", "never"… is a claim
the data may stop supporting. The evidence quoted is that provider's own rank on the page's data (in
the metric the sentence speaks of, when it names one), never another provider's."""

import re

from django.utils.translation import gettext as _

from benchmarks.metrics import METRICS, PERCENT, SPEED, TIME
from benchmarks.models import Provider

from .prose_fields import CHECKED, REFERENCE

# Ranking words per language. "first"/"primer" before a metric name ("first chunk") and "second"
# after "per"/"por" (a unit) are not ranks.
RANKING_WORDS = {
    "en": (
        r"lead(?:s|ing|er)?|tops?|topped|fastest|quickest|slowest|cheapest|runner-up|"
        r"first(?!\s+(?:chunk|token|byte|response))|(?<!per\s)second|last|never|only|every|ahead|behind|"
        r"wins?|beats?|best|worst|outpaces?|outperforms?|faster|quicker|slower|cheaper"
    ),
    "es": (
        r"lidera(?:n|ndo)?|l[ií]der|encabeza(?:n)?|m[aá]s\s+r[aá]pid[oa]s?|m[aá]s\s+lent[oa]s?|"
        r"(?<!por\s)segund[oa]|primer[oa]?(?!\s+(?:fragmento|token|byte))|"
        r"[uú]ltim[oa]|nunca|s[oó]lo|[uú]nic[oa]|tod[oa]s|cada|por\s+delante|al\s+frente|detr[aá]s|"
        r"gana|supera|mejor|peor|m[aá]s\s+barat[oa]"
    ),
}
CLAIM_WINDOW = 40
SENTENCE_END = re.compile(r"[.!?;](?=\s|$)")
EVIDENCE_ITEMS = 4

# The metric a sentence speaks of, by the words it uses: its evidence is that metric's ranks.
METRIC_HINTS = (
    (r"speed|throughput|tokens?/s|tok/s|velocidad|rendimiento", lambda m: m.kind == SPEED),
    (r"first\s+(?:chunk|token)|latency|ttf[ct]|response|primer\s+(?:fragmento|token)|latencia|respuesta",
     lambda m: m.kind == TIME),
    (r"accura|reliab|precisi|fiab", lambda m: m.kind == PERCENT),
    (r"price|cheap|cost|precio|barat|cuesta", None),  # prices: no rank of a measured metric
)


def _ranking_pattern(lang):
    return re.compile(rf"(?<!\w)(?:{RANKING_WORDS.get(lang, RANKING_WORDS['en'])})(?!\w)", re.IGNORECASE)


class RankingClaims:
    """Built once per page and language: provider names, and each measured endpoint's ranks."""

    def __init__(self, data, lang):
        self.lang = lang
        self.ranking = _ranking_pattern(lang)
        self.ranks = {}  # provider name -> [(metric, description)]
        for (_model_id, _source_id, metric_key), rows in data._by_source.items():
            metric = METRICS.get(metric_key)
            if metric is None or not rows:
                continue
            ranked = data.ranked(rows[0].endpoint.model, metric_key, rows[0].snapshot.source)
            for position, row in enumerate(ranked, start=1):
                description = _("%(endpoint)s · %(model)s · %(metric)s: rank %(rank)s of %(count)s") % {
                    "endpoint": row.endpoint.label, "model": row.endpoint.model.name, "metric": metric.label,
                    "rank": position, "count": len(ranked),
                }
                self.ranks.setdefault(row.endpoint.provider.name, []).append((metric, description))
        # Every provider the site knows: a claim about one this page has no figure of is unchecked too.
        names = set(self.ranks) | set(Provider.objects.values_list("name", flat=True))
        self.names = _alternation(names)
        # A model named after its maker ("DeepSeek V4.1") is not its provider: its name is skipped.
        self.models = _alternation({row.endpoint.model.name for row in data.measurements})

    def evidence(self, name, sentence):
        ranks = self.ranks.get(name, [])
        if not ranks:
            return [_("ranking claim about %(name)s") % {"name": name},
                    _("no figure of %(name)s on this page") % {"name": name}]
        tests = [test for hint, test in METRIC_HINTS if re.search(hint, sentence, re.IGNORECASE)]
        if tests:
            ranks = [(metric, text) for metric, text in ranks if any(test and test(metric) for test in tests)]
        return [_("ranking claim about %(name)s") % {"name": name}] + sorted(text for _m, text in ranks)[
            :EVIDENCE_ITEMS
        ]

    def find(self, text, subject=None):
        """[(typed, evidence, context)]: a provider named near a ranking word in one sentence; in the
        text of a block about one provider (a card), a ranking word in a sentence naming nobody."""
        found = []
        start = 0
        for end in [m.end() for m in SENTENCE_END.finditer(text)] + [len(text)]:
            sentence, offset, start = text[start:end], start, end
            if not sentence.strip() or REFERENCE in sentence:
                continue
            models = [m.span() for m in self.models.finditer(sentence)] if self.models else []
            named = [
                match for match in (self.names.finditer(sentence) if self.names else [])
                if not any(start <= match.start() < end for start, end in models)
            ]
            words = list(self.ranking.finditer(sentence))
            for match in named:
                if any(
                    word.end() >= match.start() - CLAIM_WINDOW and word.start() <= match.end() + CLAIM_WINDOW
                    for word in words
                ):
                    found.append((match.group(0), self.evidence(match.group(0), sentence),
                                  _context(text, offset + match.start(), offset + match.end())))
            if not named and subject and words:
                word = words[0]
                found.append((word.group(0), self.evidence(subject, sentence),
                              _context(text, offset + word.start(), offset + word.end())))
        return found


def _alternation(names):
    names = sorted((name for name in names if name), key=len, reverse=True)
    return re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, names))})(?!\w)") if names else None


def _context(text, start, end):
    return text[max(start - CLAIM_WINDOW, 0):end + CLAIM_WINDOW].replace(REFERENCE, "…").replace(CHECKED, "…").strip()
