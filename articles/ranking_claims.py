"""Ranking claims typed in prose: a provider named next to "leads", "fastest", "never"… is a claim
the data may stop supporting. The evidence quoted is that provider's own rank on the page's data, in
the metric and on the models the sentence speaks of, never another provider's; when the page has no
such rank, the evidence says so instead of quoting unrelated figures."""

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from benchmarks.metrics import METRICS, SPEED, TIME
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
        r"lidera(?:n|ndo)?|l[ií]der(?:es)?|encabeza(?:n)?|m[aá]s\s+r[aá]pid[oa]s?|m[aá]s\s+lent[oa]s?|"
        r"(?<!por\s)segund[oa]|primer[oa]?(?!\s+(?:fragmento|token|byte))|"
        r"[uú]ltim[oa]|nunca|s[oó]lo|[uú]nic[oa]s?|tod[oa]s|cada|por\s+delante|al\s+frente|detr[aá]s|"
        r"gana|supera|mejor|peor|m[aá]s\s+barat[oa]"
    ),
}
CLAIM_WINDOW = 40
SENTENCE_END = re.compile(r"[.!?;](?=\s|$)")
EVIDENCE_ITEMS = 4


def _keys(*keys):
    return lambda metric: metric.key in keys


# What a sentence compares, by the words it uses: (words, what it is called, which metrics). Its
# evidence is those metrics' ranks. Prices have no rank of a measured metric: nothing to quote.
METRIC_HINTS = (
    (r"speed|throughput|tokens?/s|tok/s|tokens?\s+(?:per|por)\s+segundo|tokens?\s+per\s+second|velocidad|rendimiento",
     gettext_lazy("output speed"), lambda m: m.kind == SPEED),
    (r"first\s+(?:chunk|token)|ttf[ct]|primer\s+(?:fragmento|token)|\bstart|arranque|espera|\bwait",
     gettext_lazy("first chunk"), lambda m: m.kind == TIME and not m.key.startswith("e2e")),
    (r"end-to-end|extremo\s+a\s+extremo|whole\s+answer|complete\s+answer|respuesta\s+completa",
     gettext_lazy("end-to-end time"), lambda m: m.key.startswith("e2e")),
    (r"latenc", gettext_lazy("latency"), lambda m: m.kind == TIME),
    (r"accura|precis|exact", gettext_lazy("accuracy"), _keys("accuracy_index", "task_success")),
    (r"success|[ée]xito|correct", gettext_lazy("task success"), _keys("task_success")),
    (r"failure|fallo|error|reliab|fiab", gettext_lazy("failure rate"), _keys("failure_rate")),
    # Only words that rank by price: "a separate, more expensive product" next to "ahead" describes
    # the product, the claim is still about speed.
    (r"cheap|barat|lowest\s+price|precio\s+m[aá]s\s+bajo", gettext_lazy("price"), lambda m: False),
)
# "Fastest", "quicker", "más lento": speed or time, when the sentence names neither.
PACE_WORDS = r"fast|quick|slow|pace|r[aá]pid|lent"
MODEL_INTRO = "|".join(rf"(?<=\b{word}\s)" for word in ("on", "for", "en", "para"))


def _ranking_pattern(lang):
    return re.compile(rf"(?<!\w)(?:{RANKING_WORDS.get(lang, RANKING_WORDS['en'])})(?!\w)", re.IGNORECASE)


@dataclass(frozen=True)
class Rank:
    metric: object
    model: str
    position: int
    count: int
    description: str


class RankingClaims:
    """Built once per page and language: provider names, model names, each measured endpoint's ranks."""

    def __init__(self, data, lang):
        self.lang = lang
        self.ranking = _ranking_pattern(lang)
        self.ranks = {}  # provider name -> [Rank]
        models = {}
        for (_model_id, _source_id, metric_key), rows in data._by_source.items():
            metric = METRICS.get(metric_key)
            if metric is None or not rows:
                continue
            ranked = data.ranked(rows[0].endpoint.model, metric_key, rows[0].snapshot.source)
            for position, row in enumerate(ranked, start=1):
                model = row.endpoint.model
                models[model.name] = model
                description = _("%(endpoint)s · %(model)s · %(metric)s: rank %(rank)s of %(count)s") % {
                    "endpoint": row.endpoint.label, "model": model.name, "metric": metric.label,
                    "rank": position, "count": len(ranked),
                }
                rank = Rank(metric, model.name, position, len(ranked), description)
                self.ranks.setdefault(row.endpoint.provider.name, []).append(rank)
        self.page_models = models
        # Every provider the site knows: a claim about one this page has no figure of is unchecked too.
        names = set(self.ranks) | set(Provider.objects.values_list("name", flat=True))
        self.names = _alternation(names)
        # A model named after its maker ("DeepSeek V4.1") is not its provider: its name is skipped.
        self.models = _alternation(set(models))
        # "on DeepSeek" for "on DeepSeek V4.1 Flash 1017": a model's first word, when no other model
        # on the page starts with it, after a word that introduces a model.
        firsts = {}
        for name in models:
            firsts.setdefault(name.split()[0], []).append(name)
        self.short_models = {first: names[0] for first, names in firsts.items() if len(names) == 1}
        shorts = "|".join(map(re.escape, sorted(self.short_models, key=len, reverse=True)))
        self.short_pattern = (
            re.compile(rf"(?:{MODEL_INTRO})(?:{shorts})(?![\w'’-])", re.IGNORECASE) if shorts else None
        )

    def models_in(self, sentence):
        """[(span, model name)] of the page's models a sentence names, in full or by its first word."""
        found = [(m.span(), m.group(0)) for m in self.models.finditer(sentence)] if self.models else []
        for match in self.short_pattern.finditer(sentence) if self.short_pattern else []:
            if not any(start <= match.start() < end for (start, end), _name in found):
                found.append((match.span(), self.short_models[match.group(0)]))
        return found

    def named_in(self, text):
        """The providers a text names, not counting a model's maker in the model's name."""
        models = [span for span, _name in self.models_in(text)]
        return [
            match.group(0) for match in (self.names.finditer(text) if self.names else [])
            if not any(start <= match.start() < end for start, end in models)
        ]

    def evidence(self, name, sentence, metric_key=None, models=()):
        """That provider's ranks in what the sentence compares: the metric it names (else the block's)
        and the models it names. Says so when the page has none, rather than quoting others."""
        claim = _("ranking claim about %(name)s") % {"name": name}
        ranks = self.ranks.get(name, [])
        if not ranks:
            return [claim, _("no figure of %(name)s on this page") % {"name": name}]
        hints = [(label, test) for hint, label, test in METRIC_HINTS if re.search(hint, sentence, re.IGNORECASE)]
        if not hints and re.search(PACE_WORDS, sentence, re.IGNORECASE):
            hints = [(label, test) for _hint, label, test in METRIC_HINTS[:2]]
        compared = [str(label) for label, _test in hints]
        if not hints and METRICS.get(metric_key or ""):
            block_metric = METRICS[metric_key]
            hints, compared = [(block_metric.label, _keys(metric_key))], [str(block_metric.label)]
        if hints:
            ranks = [rank for rank in ranks if any(test(rank.metric) for _label, test in hints)]
        models = list(dict.fromkeys(models))
        if models:
            ranks = [rank for rank in ranks if rank.model in models]
        if not ranks:
            what = " · ".join([*models, *compared])
            return [claim, _("no rank of %(name)s on this page for %(what)s") % {"name": name, "what": what}]
        order = list(self.page_models)
        ranks = sorted(ranks, key=lambda r: (order.index(r.model), r.position, str(r.metric.label)))
        return [claim] + [rank.description for rank in ranks[:EVIDENCE_ITEMS]]

    def find(self, text, subject=None, metric_key=None):
        """[(typed, evidence, context)]: a provider named near a ranking word in one sentence; in the
        text of a block about one provider (a card), a ranking word in a sentence not naming it is a
        claim about it too ("Leads two of the three current models")."""
        found = []
        start = 0
        for end in [m.end() for m in SENTENCE_END.finditer(text)] + [len(text)]:
            sentence, offset, start = text[start:end], start, end
            if not sentence.strip() or REFERENCE in sentence:
                continue
            models = self.models_in(sentence)
            named = [
                match for match in (self.names.finditer(sentence) if self.names else [])
                if not any(start <= match.start() < end for (start, end), _name in models)
            ]
            model_names = [name for _span, name in sorted(models)]
            words = list(self.ranking.finditer(sentence))
            claimed = [
                match for match in named
                if any(word.end() >= match.start() - CLAIM_WINDOW and word.start() <= match.end() + CLAIM_WINDOW
                       for word in words)
            ]
            for n, match in enumerate(claimed):
                # "Baseten leads two models, CoreWeave leads GLM-5.3-Flash": a model named after the
                # next claimant is that one's. A lone claimant has the whole sentence's models.
                until = claimed[n + 1].start() if n + 1 < len(claimed) else len(sentence)
                own = [name for (begin, _end), name in sorted(models) if match.start() <= begin < until]
                found.append((match.group(0), self.evidence(
                    match.group(0), sentence, metric_key, own if len(claimed) > 1 else model_names),
                    _context(text, offset + match.start(), offset + match.end())))
            if subject and words and not any(match.group(0) == subject for match in named):
                word = words[0]
                found.append((word.group(0), self.evidence(subject, sentence, metric_key, model_names),
                              _context(text, offset + word.start(), offset + word.end())))
        return found


def _alternation(names):
    names = sorted((name for name in names if name), key=len, reverse=True)
    return re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, names))})(?!\w)") if names else None


def _context(text, start, end):
    return text[max(start - CLAIM_WINDOW, 0):end + CLAIM_WINDOW].replace(REFERENCE, "…").replace(CHECKED, "…").strip()
