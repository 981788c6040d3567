"""A statement's conditions in words, for the editor's chip, the review list and the translator."""

from asgiref.local import Local
from django.core.signals import request_finished, request_started
from django.utils.translation import gettext as _

from articles.datarefs.resolve import quantity_label

from .conditions import (
    ABOVE,
    ALL,
    ANY,
    COMPARE,
    COUNT,
    EQ,
    GE,
    LEADS,
    MEASURED,
    RANK,
    VALUE,
    named_provider_ids,
)

# The editor converts every statement of a page when it opens it: names come from one cached
# lookup (keyed on the data generation, as data references' tokens are), not two queries each.
NAMES_CACHE_SECONDS = 600


# Within one request the names are read from Redis once: the edit view describes every statement of
# both languages' bodies (two Redis reads each before). Outside a request (a task) nothing is kept.
_request = Local()


def _request_started(**kwargs):
    _request.names = None
    _request.described = None
    _request.active = True


def _request_finished(**kwargs):
    _request.names = None
    _request.described = None
    _request.active = False


request_started.connect(_request_started, dispatch_uid="statement-names-request-started")
request_finished.connect(_request_finished, dispatch_uid="statement-names-request-finished")


def _cached_names(refresh=False):
    from django.core.cache import cache

    from benchmarks.cache import data_generation
    from benchmarks.models import LanguageModel, Provider

    in_request = getattr(_request, "active", False)
    names = getattr(_request, "names", None) if in_request and not refresh else None
    if names is not None:
        return names
    key = f"statements:names:{data_generation()}"
    names = None if refresh else cache.get(key)
    if names is None:
        names = (dict(Provider.objects.values_list("pk", "name")), dict(LanguageModel.objects.values_list("pk", "name")))
        cache.set(key, names, NAMES_CACHE_SECONDS)
    if in_request:
        _request.names = names
    return names


def _names(claim):
    providers, models = _cached_names()
    wanted = {pk for c in claim.conditions for pk in named_provider_ids((c.host, c.other))}
    if not (wanted <= set(providers) and claim.model_ids <= set(models)):
        # Named after the cache was filled (or the cache holds another database's names): read them
        # all again, once, rather than two queries for each statement that follows.
        providers, models = _cached_names(refresh=True)
    return providers, models


def _host(host, providers):
    return host.name(providers)


def describe_condition(condition, providers, models):
    metric = quantity_label(condition)
    model_names = ", ".join(models.get(pk, f"#{pk}") for pk in condition.models)
    host = _host(condition.host, providers) if condition.host else ""
    if condition.kind == LEADS:
        quantity = {ALL: _("all of"), ANY: _("any of")}.get(condition.quantifier) or (
            _("exactly %(n)s of") % {"n": condition.n})
        return _("%(host)s leads %(metric)s on %(quantity)s %(models)s") % {
            "host": host, "metric": metric, "quantity": quantity, "models": model_names}
    if condition.kind == RANK:
        return _("%(host)s ranks %(n)s or better on %(metric)s for %(model)s") % {
            "host": host, "n": condition.n, "metric": metric, "model": model_names}
    if condition.kind == COMPARE:
        words = {"faster": _("faster than"), "slower": _("slower than"), "cheaper": _("cheaper than")}
        text = _("%(host)s is %(relation)s %(other)s on %(model)s (%(metric)s)") % {
            "host": host, "relation": words[condition.relation], "other": _host(condition.other, providers),
            "model": model_names, "metric": metric}
        if condition.factor is not None:
            text += " " + _("by at least %(factor)s×") % {"factor": condition.factor}
        return text
    if condition.kind == COUNT:
        sign = {EQ: "=", GE: "≥"}.get(condition.relation, "≤")
        return _("hosts measured on %(model)s (%(metric)s) %(sign)s %(n)s") % {
            "model": model_names, "metric": metric, "sign": sign, "n": condition.n}
    if condition.kind == VALUE:
        words = _("above") if condition.relation == ABOVE else _("below")
        return _("%(host)s's %(metric)s on %(model)s is %(relation)s %(threshold)s") % {
            "host": host, "metric": metric, "model": model_names, "relation": words,
            "threshold": condition.threshold}
    assert condition.kind == MEASURED
    if condition.negated:
        return _("%(host)s is not measured on %(model)s") % {"host": host, "model": model_names}
    return _("%(host)s is measured on %(model)s") % {"host": host, "model": model_names}


def describe_claim(claim):
    """The claim in words of the active language. Within a request each distinct claim is described
    once: the English and Spanish bodies carry the same conditions (the edit view described each twice)."""
    if not getattr(_request, "active", False):
        return _describe(claim)
    from django.utils.translation import get_language

    memo = getattr(_request, "described", None)
    if memo is None:
        memo = _request.described = {}
    key = (claim, get_language())
    if key not in memo:
        memo[key] = _describe(claim)
    return memo[key]


def _describe(claim):
    providers, models = _names(claim)
    return _(" and ").join(
        describe_condition(c, providers, models) if not c.negated or c.kind == MEASURED
        else _("not (%(condition)s)") % {"condition": describe_condition(c, providers, models)}
        for c in claim.conditions
    )
