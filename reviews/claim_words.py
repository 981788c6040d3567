"""What a statement claims, worded as sentences for the review of changed figures, in either language.

The editor's chip words a condition as a compact formula (articles.statements.describe: "leads Output
speed on all of GLM-5.3"), which Spanish cannot follow word for word: the review read "lidera Velocidad
de salida en todos GLM-5.3". Here each kind of condition, affirmative or negated, is one whole
translatable sentence, so the Spanish orders its words as Spanish needs ("es el primero en velocidad
de salida en GLM-5.3").
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from articles.datarefs.resolve import quantity_label
from articles.statements.conditions import (
    ABOVE,
    ANY,
    CHEAPER,
    COMPARE,
    COUNT,
    EQ,
    EXACTLY,
    FASTER,
    GE,
    LEADS,
    MEASURED,
    RANK,
    SLOWER,
    VALUE,
    named_provider_ids,
)
from benchmarks.formatting import format_metric, format_money


def claim_names(claims):
    """({provider id: name}, {model id: name}) for the hosts and models of these claims, in two queries."""
    from benchmarks.models import LanguageModel, Provider

    providers, models = set(), set()
    for claim in claims:
        for condition in claim.conditions:
            providers |= named_provider_ids((condition.host, condition.other))
            models |= set(condition.models)
    return (
        dict(Provider.objects.filter(pk__in=providers).values_list("pk", "name")) if providers else {},
        dict(LanguageModel.objects.filter(pk__in=models).values_list("pk", "name")) if models else {},
    )


def in_sentence(label):
    """A metric's label inside a sentence: "Output speed" reads "output speed" there; a name whose other
    words are capitalised ("Endpoint Accuracy Index") or an acronym ("TTFT p95") keeps its capitals."""
    label = str(label)
    words = label.split()
    if len(label) < 2 or not label[1].islower() or any(word[:1].isupper() for word in words[1:]):
        return label
    return label[0].lower() + label[1:]


def listed(names):
    """"A", "A and B", "A, B and C" in the active language."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return _("%(items)s and %(last)s") % {"items": ", ".join(names[:-1]), "last": names[-1]}


def _host(host, providers):
    return host.name(providers)


def _number(condition, value):
    if condition.is_price:
        return format_money(value)
    metric = condition.metric_definition
    return format_metric(metric, value) + ("" if metric.cell_suffix else f" {metric.unit}")


def _leads(condition, words):
    if condition.quantifier == ANY:
        return _("%(host)s ranks first on %(metric)s for at least one of these models: %(models)s") % words
    if condition.quantifier == EXACTLY and condition.n == 0:
        return _("%(host)s ranks first on %(metric)s for none of these models: %(models)s") % words
    if condition.quantifier == EXACTLY:
        return _("%(host)s ranks first on %(metric)s for exactly %(n)s of these models: %(models)s") % words
    if len(condition.models) > 1:
        return _("%(host)s ranks first on %(metric)s for each of these models: %(models)s") % words
    return _("%(host)s ranks first on %(metric)s for %(models)s") % words


def _rank(condition, words):
    if condition.n == 1:
        if condition.negated:
            return _("%(host)s does not rank first on %(metric)s for %(models)s") % words
        return _("%(host)s ranks first on %(metric)s for %(models)s") % words
    if condition.negated:
        return _("%(host)s is not among the top %(n)s on %(metric)s for %(models)s") % words
    return _("%(host)s is among the top %(n)s on %(metric)s for %(models)s") % words


def _compare_sentences():
    """{(relation, negated, with a factor): sentence}, read in the active language. "Slower by a factor"
    and "cheaper by a factor" are worded from the other host's side, the way a reader says them."""
    return {
        (FASTER, False, False): _("%(host)s is faster than %(other)s on %(models)s (%(metric)s)"),
        (FASTER, True, False): _("%(host)s is not faster than %(other)s on %(models)s (%(metric)s)"),
        (SLOWER, False, False): _("%(host)s is slower than %(other)s on %(models)s (%(metric)s)"),
        (SLOWER, True, False): _("%(host)s is not slower than %(other)s on %(models)s (%(metric)s)"),
        (CHEAPER, False, False): _("%(host)s is cheaper than %(other)s on %(models)s (%(metric)s)"),
        (CHEAPER, True, False): _("%(host)s is not cheaper than %(other)s on %(models)s (%(metric)s)"),
        (FASTER, False, True): _("%(host)s is at least %(factor)s times as fast as %(other)s on %(models)s "
                                 "(%(metric)s)"),
        (FASTER, True, True): _("%(host)s is less than %(factor)s times as fast as %(other)s on %(models)s "
                                "(%(metric)s)"),
        (SLOWER, False, True): _("%(other)s is at least %(factor)s times as fast as %(host)s on %(models)s "
                                 "(%(metric)s)"),
        (SLOWER, True, True): _("%(other)s is less than %(factor)s times as fast as %(host)s on %(models)s "
                                "(%(metric)s)"),
        (CHEAPER, False, True): _("%(other)s costs at least %(factor)s times as much as %(host)s on %(models)s "
                                  "(%(metric)s)"),
        (CHEAPER, True, True): _("%(other)s costs less than %(factor)s times as much as %(host)s on %(models)s "
                                 "(%(metric)s)"),
    }


def _compare(condition, words):
    factor = condition.factor
    words = {**words, "factor": f"{factor.normalize():f}" if factor is not None else ""}
    return _compare_sentences()[(condition.relation, condition.negated, factor is not None)] % words


def _count(condition, words):
    if condition.relation == EQ:
        return ngettext("exactly %(n)s host is measured on %(models)s (%(metric)s)",
                        "exactly %(n)s hosts are measured on %(models)s (%(metric)s)", condition.n) % words
    if condition.relation == GE:
        return ngettext("at least %(n)s host is measured on %(models)s (%(metric)s)",
                        "at least %(n)s hosts are measured on %(models)s (%(metric)s)", condition.n) % words
    return ngettext("at most %(n)s host is measured on %(models)s (%(metric)s)",
                    "at most %(n)s hosts are measured on %(models)s (%(metric)s)", condition.n) % words


def _value(condition, words):
    words = {**words, "threshold": _number(condition, condition.threshold)}
    if condition.relation == ABOVE:
        return _("%(host)s's %(metric)s on %(models)s is above %(threshold)s") % words
    return _("%(host)s's %(metric)s on %(models)s is below %(threshold)s") % words


def _measured(condition, words):
    if condition.negated:
        return _("%(host)s is not measured on %(models)s") % words
    return _("%(host)s is measured on %(models)s") % words


WORDING = {LEADS: _leads, RANK: _rank, COMPARE: _compare, COUNT: _count, VALUE: _value, MEASURED: _measured}
# Kinds whose sentences above say "not" themselves; any other negated condition is introduced as such.
SAYS_NOT = (RANK, COMPARE, MEASURED)


def condition_words(condition, providers, models):
    """One condition as a sentence in the active language."""
    words = {
        "host": _host(condition.host, providers) if condition.host else "",
        "other": _host(condition.other, providers) if condition.other else "",
        "metric": in_sentence(quantity_label(condition)),
        "models": listed(models.get(pk, f"#{pk}") for pk in condition.models),
        "n": condition.n,
    }
    sentence = WORDING[condition.kind](condition, words)
    if condition.negated and condition.kind not in SAYS_NOT:
        return _("the opposite of: %(condition)s") % {"condition": sentence}
    return sentence


def claim_words(claim, names=None):
    """What the statement claims, every condition a sentence: "Baseten (Fast) ranks first on output speed
    for GLM-5.3; Baseten (Fast) is at least 1.5 times as fast as Together AI on GLM-5.3 (output speed)"."""
    providers, models = names or claim_names([claim])
    return "; ".join(condition_words(condition, providers, models) for condition in claim.conditions)
