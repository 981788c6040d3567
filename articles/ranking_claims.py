"""Ranking claims typed in prose: a provider named next to "leads", "fastest", "never"… is a claim
the data may stop supporting, and so is a model named next to "only" ("Only GLM-5.3 and GPT-OSS
120B have an accuracy index"). The evidence quoted is that provider's own rank on the figures the
page shows, in the metric, tier and models the sentence speaks of, never another provider's; when
the page has no such rank, the evidence says so instead of quoting unrelated figures.

A data reference in a sentence does not make the sentence checked: only the figure it prints is.
Words typed around it are read like any others ("one stands well ahead: [leader], Baseten's premium
tier" names the old leader in plain words next to the live one), and its model and metric tell
what the sentence is about when the words do not.
"""

import re
from collections import Counter
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from benchmarks.metrics import METRICS, SPEED, TIME
from benchmarks.models import Provider

from .prose_fields import CHECKED, REFERENCE

# Exclusivity words: "only", "every", "never" speak of a whole clause ("the one current model on
# which the benchmark measures CoreWeave"), so a name anywhere in that clause is claimed. "Not only"
# and "no solo" are not exclusive.
EXCLUSIVE_WORDS = {
    "en": r"(?<!not\s)only|sole(?:ly)?|exclusive(?:ly)?|(?<=\bthe\s)one(?!\s+of\b|-)|every|never",
    "es": r"(?<!no\s)s[oó]lo|[uú]nic[oa]s?|exclusiv[oa]s?|exclusivamente|cada|nunca|tod[oa]s",
}
# The words that single models out: a model named in their clause is claimed.
ONLY_WORDS = {
    "en": r"(?<!not\s)only|sole(?:ly)?|exclusive(?:ly)?|(?<=\bthe\s)one(?!\s+of\b|-)",
    "es": r"(?<!no\s)s[oó]lo|[uú]nic[oa]s?|exclusiv[oa]s?|exclusivamente",
}
# Ranking words per language. "first"/"primer" before a metric name ("first chunk") and "second"
# after "per"/"por" (a unit) are not ranks.
RANKING_WORDS = {
    "en": (
        r"lead(?:s|ing|er)?|led|tops?|topped|fastest|quickest|slowest|cheapest|runner-up|"
        r"more\s+expensive|pricier|costs?\s+extra|"
        r"first(?!\s+(?:chunk|token|byte|response))|(?<!per\s)second|last|ahead|behind|"
        r"wins?|beats?|best|worst|outpaces?|outperforms?|faster|quicker|slower|cheaper|"
        r"longest|shortest|highest|lowest|" + EXCLUSIVE_WORDS["en"]
    ),
    "es": (
        r"lider(?:a|an|ando|ar|[oó]|aba|aban|aron)|l[ií]der(?:es)?|encabeza(?:n)?|m[aá]s\s+r[aá]pid[oa]s?|"
        r"m[aá]s\s+lent[oa]s?|m[aá]s\s+car[oa]s?|menor|mayor|ventaja|"
        r"(?<!por\s)segund[oa]|primer[oa]?(?!\s+(?:fragmento|token|byte))|"
        r"[uú]ltim[oa]|por\s+delante|al\s+frente|detr[aá]s|"
        r"gana|supera|mejor|peor|m[aá]s\s+barat[oa]|m[aá]s\s+(?:larg|cort|alt|baj)[oa]s?|" + EXCLUSIVE_WORDS["es"]
    ),
}
# The words of a lead ("leads two of the current models" counts leads, not models measured).
LEAD_WORDS = (
    r"lead(?:s|ing)?|led|tops?|topped|fastest|quickest|first(?!\s+(?:chunk|token|byte|response))|best|wins?|"
    r"ahead|lidera\w*|encabeza\w*|primer[oa]?(?!\s+(?:fragmento|token|byte))|m[aá]s\s+r[aá]pid\w*|mejor|gana|"
    r"al\s+frente|por\s+delante"
)
# Words of being measured at all ("the benchmark measures CoreWeave", "no benchmark rows").
MEASURED_WORDS = r"measur|benchmark\s+rows?|\bmedid|\bmide\b|\bmiden\b|datos\s+del\s+benchmark"
# "Current models" / "modelos actuales": a claim about the page's models but its baseline.
CURRENT_WORDS = r"\bcurrent\b|\bactual(?:es)?\b"
CLAIM_WINDOW = 40
# A ranking word this close to a data reference is the reference's ("[leader] leads on speed").
ATTACHED = 12
SENTENCE_END = re.compile(r"[.!?;](?=\s|$)")
CLAUSE_MARK = re.compile(r"[,;:()\u2014\u2013]")
CLAIM_BREAK = re.compile(r"[,;:()\u2014\u2013]|\s(?:and|but|while|whereas|y|pero|mientras)\s", re.IGNORECASE)
EVIDENCE_ITEMS = 4


def _keys(*keys):
    return lambda metric: metric.key in keys


# What a sentence compares, by the words it uses: (words, what it is called, which metrics). Its
# evidence is those metrics' ranks. Prices have no rank of a measured metric: nothing to quote.
METRIC_HINTS = (
    (r"speed|throughput|tokens?/s|tok/s|tokens?\s+(?:per|por)\s+segundo|tokens?\s+per\s+second|velocidad|rendimiento",
     gettext_lazy("output speed"), lambda m: m.kind == SPEED),
    (r"first\s+(?:chunk|token)|ttf[ct]|primer[oa]?s?\s+(?:fragmento|token)|\bstart|arranque|espera|\bwait",
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
# A provider's tier, by the words next to its name: "Baseten's premium tier", "el nivel Fast".
PREMIUM = r"premium|pr[eé]mium"
STANDARD = r"standard|est[aá]ndar"
TIER_WINDOW = 30


def _pattern(words):
    return re.compile(rf"(?<!\w)(?:{words})(?!\w)", re.IGNORECASE)


def headline_metric(blocks):
    """The metric most of the page's data blocks show (sort, chart, cards), or None: what a sentence
    outside any block ("leads two of the current models") compares when it names no metric."""
    seen = Counter()
    for child in blocks:
        value = getattr(child, "value", None)
        if not hasattr(value, "get") or isinstance(value, list | tuple):
            continue
        for key in ("metric", "sort_metric", "y_metric", "order_by"):
            metric = value.get(key)
            if isinstance(metric, str) and metric in METRICS:
                seen[metric] += 1
    return seen.most_common(1)[0][0] if seen else None


@dataclass(frozen=True)
class Rank:
    metric: object
    model: str
    position: int
    count: int
    description: str
    tier: str = ""


class RankingClaims:
    """Built once per page and language: provider names, model names, each shown endpoint's ranks."""

    def __init__(self, data, lang):
        self.lang = lang if lang in RANKING_WORDS else "en"
        self.ranking = _pattern(RANKING_WORDS[self.lang])
        self.exclusive = _pattern(EXCLUSIVE_WORDS[self.lang])
        self.only = _pattern(ONLY_WORDS[self.lang])
        self.lead_words = _pattern(LEAD_WORDS)
        self.ranks = {}  # provider name -> [Rank]
        self.model_hosts = {}  # (model name, metric key) -> hosts ranked
        self.headline = headline_metric(data.blocks)
        # Only the sources the page's blocks show: a first-party run loaded for the same model but
        # printed nowhere on the page is no evidence a reader could check.
        _models, shown = data.requirements
        models, self.model_names = {}, {}
        for (_model_id, source_id, metric_key), rows in data._by_source.items():
            metric = METRICS.get(metric_key)
            if metric is None or not rows or (shown and source_id not in shown):
                continue
            ranked = data.ranked(rows[0].endpoint.model, metric_key, rows[0].snapshot.source)
            for position, row in enumerate(ranked, start=1):
                model = row.endpoint.model
                models[model.name] = model
                self.model_names[model.pk] = model.name
                self.model_hosts[(model.name, metric_key)] = len(ranked)
                description = _("%(endpoint)s · %(model)s · %(metric)s: rank %(rank)s of %(count)s") % {
                    "endpoint": row.endpoint.label, "model": model.name, "metric": metric.label,
                    "rank": position, "count": len(ranked),
                }
                rank = Rank(metric, model.name, position, len(ranked), description, row.endpoint.tier or "")
                self.ranks.setdefault(row.endpoint.provider.name, []).append(rank)
        self.page_models = models
        # "for every current model": the page's models that are not kept as a baseline.
        self.current_models = [name for name, model in models.items() if not getattr(model, "is_baseline", False)]
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

    # --- what a text names --------------------------------------------------------------------
    def models_in(self, sentence):
        """[(span, model name)] of the page's models a sentence names, in full or by its first word."""
        found = [(m.span(), m.group(0)) for m in self.models.finditer(sentence)] if self.models else []
        for match in self.short_pattern.finditer(sentence) if self.short_pattern else []:
            if not any(start <= match.start() < end for (start, end), _name in found):
                found.append((match.span(), self.short_models[match.group(0)]))
        return sorted(found)

    def _providers_in(self, sentence, models):
        return [
            match for match in (self.names.finditer(sentence) if self.names else [])
            if not any(start <= match.start() < end for (start, end), _name in models)
        ]

    def named_in(self, text):
        """The providers a text names, not counting a model's maker in the model's name."""
        return [match.group(0) for match in self._providers_in(text, self.models_in(text))]

    # --- what a sentence compares -------------------------------------------------------------
    def compared(self, scope, sentence=None, metric_key=None, ref_metrics=()):
        """[(label, test on a metric)] a claim compares: the metric its own words name, else its
        sentence's, else its data references', else the block's or the page's headline metric
        ("fastest": the one of those that is a speed or a time). [] when nothing says."""
        for text in dict.fromkeys((scope, sentence or scope)):
            hints = [(label, test) for hint, label, test in METRIC_HINTS if re.search(hint, text, re.IGNORECASE)]
            if hints:
                return hints
        referenced = [METRICS[key] for key in dict.fromkeys(ref_metrics) if key in METRICS]
        if referenced:
            return [(metric.label, _keys(metric.key)) for metric in referenced]
        fallbacks = [METRICS[key] for key in (metric_key, self.headline) if key in METRICS]
        if re.search(PACE_WORDS, scope, re.IGNORECASE) or re.search(PACE_WORDS, sentence or "", re.IGNORECASE):
            pace = [metric for metric in fallbacks if metric.kind in (SPEED, TIME)]
            if pace:
                return [(pace[0].label, _keys(pace[0].key))]
            return [(label, test) for _hint, label, test in METRIC_HINTS[:2]]
        return [(fallbacks[0].label, _keys(fallbacks[0].key))] if fallbacks else []

    def _tiered(self, ranks, near):
        """The ranks of the tier the words next to the name speak of ("Baseten's premium tier")."""
        tiers = {rank.tier for rank in ranks}
        if len(tiers) < 2:
            return ranks
        named = {tier for tier in tiers if tier and re.search(
            rf"\b{re.escape(tier)}\s+tier|\bnivel\s+{re.escape(tier)}\b", near, re.IGNORECASE)}
        if named:
            return [rank for rank in ranks if rank.tier in named]
        if re.search(PREMIUM, near, re.IGNORECASE):
            return [rank for rank in ranks if rank.tier]
        if re.search(STANDARD, near, re.IGNORECASE):
            return [rank for rank in ranks if not rank.tier]
        return ranks

    def evidence(self, name, sentence, metric_key=None, models=(), ref_metrics=(), scope=None, near=None,
                 sentence_metric=True):
        """That provider's ranks in what the claim compares: the metric it names (else its
        sentence's, its references', the block's or the page's), the tier and the models it names.
        Says so when the page has none, rather than quoting others. `sentence_metric` False: the
        sentence holds other claims, whose metric is not this one's."""
        scope = scope or sentence
        claim = _("ranking claim about %(name)s") % {"name": name}
        ranks = self.ranks.get(name, [])
        if not ranks:
            return [claim, _("no figure of %(name)s on this page") % {"name": name}]
        # The tier named next to the name, else anywhere in the sentence ("The Fast tier gives … and
        # tops the speed ranking").
        tiered = self._tiered(ranks, near or scope)
        ranks = tiered if tiered != ranks else self._tiered(ranks, sentence)
        models = list(dict.fromkeys(models))
        if not models and re.search(CURRENT_WORDS, scope, re.IGNORECASE):
            models = list(self.current_models)
        if self._about_measuring(scope):
            # "The one model on which the benchmark measures CoreWeave": which models it is measured on.
            measured = [model for model in self.page_models if any(rank.model == model for rank in ranks)]
            return [claim, _("%(name)s · measured on %(models)s") % {"name": name, "models": ", ".join(measured)}]
        compared = self.compared(scope, sentence if sentence_metric else scope, metric_key, ref_metrics)
        if compared:
            ranks = [rank for rank in ranks if any(test(rank.metric) for _label, test in compared)]
        if models:
            ranks = [rank for rank in ranks if rank.model in models]
        if not ranks:
            what = " · ".join([*models, *dict.fromkeys(str(label) for label, _test in compared)])
            return [claim, _("no rank of %(name)s on this page for %(what)s") % {"name": name, "what": what}]
        order = list(self.page_models)
        ranks = sorted(ranks, key=lambda r: (order.index(r.model), r.position, str(r.metric.label)))
        return [claim] + [rank.description for rank in ranks[:EVIDENCE_ITEMS]]

    def _about_measuring(self, scope):
        """Whether a claim is about being measured at all, not about a rank: words of measuring, no
        metric named, and no ranking word but the exclusive ones ("only", "every", "único")."""
        if not re.search(MEASURED_WORDS, scope, re.IGNORECASE):
            return False
        if any(re.search(hint, scope, re.IGNORECASE) for hint, _label, _test in METRIC_HINTS):
            return False
        exclusive = {word.span() for word in self.exclusive.finditer(scope)}
        return all(word.span() in exclusive for word in self.ranking.finditer(scope))

    def model_evidence(self, names, scope, sentence, metric_key=None, ref_metrics=()):
        """For "only GLM-5.3 and GPT-OSS 120B have …": how many hosts each model of the page is
        measured by in the metric the clause names, the models it leaves out included."""
        claim = _("claim about %(models)s") % {"models": ", ".join(names)}
        compared = self.compared(scope, sentence, metric_key, ref_metrics)
        keys = [key for key in dict.fromkeys(key for _model, key in self.model_hosts)
                if not compared or any(test(METRICS[key]) for _label, test in compared)]
        lines = []
        for key in keys:
            for model in self.page_models:
                count = self.model_hosts.get((model, key))
                values = {"model": model, "metric": METRICS[key].label, "count": count}
                lines.append(ngettext("%(model)s · %(metric)s: %(count)s host measured",
                                      "%(model)s · %(metric)s: %(count)s hosts measured", count) % values
                             if count else _("%(model)s · %(metric)s: not measured") % values)
        if not lines:
            what = " · ".join(str(label) for label, _test in compared)
            return [claim, _("no figure of %(name)s on this page") % {"name": what or ", ".join(names)}]
        return [claim] + lines[:EVIDENCE_ITEMS]

    # --- finding claims -------------------------------------------------------------------------
    def find(self, text, subject=None, metric_key=None, refs=()):
        """[(typed, evidence, context)]: a provider named near a ranking word in one sentence (or
        anywhere in the clause of an exclusivity word), a model named in the clause of "only"; in
        the text of a block about one provider (a card), a ranking word in a sentence not naming it
        is a claim about it too ("Leads two of the three current models")."""
        found = []
        for start, sentence in _sentences(text):
            before = text[:start].count(REFERENCE)
            items = refs[before:before + sentence.count(REFERENCE)]
            ref_models = [self.model_names[pk] for pk, _metric in items if pk in self.model_names]
            ref_metrics = [metric for _pk, metric in items if metric in METRICS]
            context = (text, start)
            found += self._in_sentence(sentence, context, subject, metric_key, ref_models, ref_metrics)
        return found

    def _in_sentence(self, sentence, context, subject, metric_key, ref_models, ref_metrics):
        """The claims of one sentence; `context` is (the whole text, where the sentence starts)."""
        text, offset = context
        found = []
        models = self.models_in(sentence)
        named = self._providers_in(sentence, models)
        words = list(self.ranking.finditer(sentence))
        exclusive = list(self.exclusive.finditer(sentence))
        claimed = [
            match for match in named
            if any(word.end() >= match.start() - CLAIM_WINDOW and word.start() <= match.end() + CLAIM_WINDOW
                   for word in words)
            or any(_same_clause(sentence, word.start(), match.start()) for word in exclusive)
        ]
        for n, match in enumerate(claimed):
            # "Baseten leads two models, CoreWeave leads GLM-5.3-Flash": what follows a claimant up
            # to the next one is its own. A lone claimant has the whole sentence.
            begin = claimed[n - 1].end() if n else 0
            # "Z.ai tops the accuracy index while Baseten leads on speed": Baseten's claim starts
            # after the clause break, or the metric of Z.ai's words would pick Baseten's evidence.
            breaks = list(CLAIM_BREAK.finditer(sentence, begin, match.start())) if n else []
            if breaks:
                begin = breaks[-1].end()
            until = claimed[n + 1].start() if n + 1 < len(claimed) else len(sentence)
            if len(claimed) > 1:
                own = [name for (at, _end), name in models if match.start() <= at < until]
            else:
                own = [name for _span, name in models]
            near = sentence[max(match.start() - TIER_WINDOW, begin):min(match.end() + TIER_WINDOW, until)]
            evidence = self.evidence(match.group(0), sentence, metric_key, own or ref_models, ref_metrics,
                                     scope=sentence[begin:until], near=near)
            found.append((match.group(0), evidence, _context(text, offset + match.start(), offset + match.end())))
        found += self._model_claims(sentence, context, models, claimed, metric_key, ref_metrics)
        if subject and words and not any(match.group(0) == subject for match in named):
            found += self._subject_claims(sentence, context, subject, metric_key, models, words, ref_models, ref_metrics)
        return found

    def _model_claims(self, sentence, context, models, claimed, metric_key, ref_metrics):
        """Models named in the clause of "only" / "the one" / "solo" when no provider is claimed there."""
        text, offset = context
        found, reported = [], set()
        for word in self.only.finditer(sentence):
            begin, end = _clause(sentence, word.start())
            if any(begin <= match.start() < end for match in claimed):
                continue
            inside = [(span, name) for span, name in models if begin <= span[0] < end]
            names = tuple(dict.fromkeys(name for _span, name in inside))
            if not names or names in reported:
                continue
            reported.add(names)
            (first_start, first_end), _name = inside[0]
            found.append((sentence[first_start:first_end],
                          self.model_evidence(list(names), sentence[begin:end], sentence, metric_key, ref_metrics),
                          _context(text, offset + first_start, offset + first_end)))
        return found

    def _subject_claims(self, sentence, context, subject, metric_key, models, words, ref_models, ref_metrics):
        """A card's sentence naming no provider: each claim in it is about the card's provider. A
        ranking word next to a data reference is the reference's ("[leader] leads on speed"). Claims
        joined by a comma or "and" are apart ("the quickest start … and tops the speed ranking on
        GLM-5.3"), each with its own metric and models."""
        text, offset = context
        free = [word for word in words if not _attached(sentence, word)]
        groups = []
        for word in free:
            if groups and not CLAIM_BREAK.search(sentence, groups[-1][-1].end(), word.start()):
                groups[-1].append(word)
            else:
                groups.append([word])
        found = []
        for n, group in enumerate(groups):
            # A claim starts after the last break before its first word: "A high accuracy index on
            # GLM-5.3 and one of the quicker first chunks" compares first chunks only.
            after = groups[n - 1][-1].end() if n else 0
            breaks = list(CLAIM_BREAK.finditer(sentence, after, group[0].start()))
            begin = breaks[-1].end() if breaks else after
            until = len(sentence)
            if n + 1 < len(groups):  # up to the break before the next claim
                until = CLAIM_BREAK.search(sentence, group[-1].end(), groups[n + 1][0].start()).start()
            scope = sentence[begin:until]
            own = [name for (at, _end), name in models if begin <= at < until]
            if not own and len(groups) == 1:
                own = [name for _span, name in models]
            # Several claims in one sentence: each compares what its own words name, else the block's
            # metric, never another claim's ("behind the leaders …, and the longest first chunk").
            word = group[0]
            evidence = self.evidence(subject, sentence, metric_key, own or ref_models, ref_metrics, scope=scope,
                                     near=sentence[:until] if n == 0 else scope, sentence_metric=len(groups) == 1)
            found.append((word.group(0), evidence, _context(text, offset + word.start(), offset + word.end())))
        return found

    def counts_at(self, text, position, subject=None, metric_key=None, refs=()):
        """{n: [what it counts]} for a count of models typed at `position`: the models the provider
        the sentence is about leads (when it speaks of leading) or is measured on, in the metric the
        sentence names; never another provider named elsewhere in the text."""
        from .typed_counts import provider_model_counts

        for start, sentence in _sentences(text):
            if start <= position < start + len(sentence):
                break
        else:
            return {}
        at = position - start
        models = self.models_in(sentence)
        named = self._providers_in(sentence, models)
        before = [match for match in named if match.end() <= at]
        after = [match for match in named if match.start() >= at]
        name = before[-1].group(0) if before else subject or (after[0].group(0) if after else None)
        if name is None:
            return {}
        prior = text[:start].count(REFERENCE)
        ref_metrics = [metric for _pk, metric in refs[prior:prior + sentence.count(REFERENCE)] if metric in METRICS]
        compared = self.compared(sentence, sentence, metric_key, ref_metrics)
        leads = bool(self.lead_words.search(sentence))
        ranks = self._tiered(self.ranks.get(name, []), sentence)
        return provider_model_counts({name: ranks}, [name], [test for _label, test in compared], leads)


def _sentences(text):
    """(start, sentence) of each sentence of a text, by its end punctuation."""
    start = 0
    for end in [m.end() for m in SENTENCE_END.finditer(text)] + [len(text)]:
        if text[start:end].strip():
            yield start, text[start:end]
        start = end


def _clause(sentence, position):
    """(start, end) of the clause around a position: between punctuation marks."""
    marks = [m.start() for m in CLAUSE_MARK.finditer(sentence)]
    begin = max((m + 1 for m in marks if m < position), default=0)
    end = min((m for m in marks if m >= position), default=len(sentence))
    return begin, end


def _same_clause(sentence, first, second):
    return _clause(sentence, first) == _clause(sentence, second)


def _attached(sentence, word):
    window = sentence[max(word.start() - ATTACHED, 0):word.end() + ATTACHED]
    return REFERENCE in window


def _alternation(names):
    names = sorted((name for name in names if name), key=len, reverse=True)
    return re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, names))})(?!\w)") if names else None


def _context(text, start, end):
    return text[max(start - CLAIM_WINDOW, 0):end + CLAIM_WINDOW].replace(REFERENCE, "…").replace(CHECKED, "…").strip()
