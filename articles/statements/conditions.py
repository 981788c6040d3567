"""What a checked statement claims about the data, and how the claim is stored in rich text.

A statement is stored as `<a linktype="statement" cond="[…]">the sentence</a>`: the sentence is the
editor's (or translator's) words, `cond` a JSON list of conditions that must all hold. The
conditions use the vocabulary of data references (models, endpoints' hosts, metrics, sources), so
a statement is checked against exactly the figures the page prints. The translation workspace
turns the opening tag into a token the translator keeps whole (editorial.richtext_tokens), so the
Spanish sentence carries the English conditions: structure belongs to the source language.
"""

import hashlib
import json
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from articles.datarefs.refs import PRICES
from benchmarks.metrics import METRICS

LINK_TYPE = "statement"

LEADS = "leads"
RANK = "rank"
COMPARE = "compare"
COUNT = "count"
VALUE = "value"
MEASURED = "measured"
KINDS = (LEADS, RANK, COMPARE, COUNT, VALUE, MEASURED)

# "leads … on [all of / any of / exactly N of] the models"
ALL, ANY, EXACTLY = "all", "any", "exactly"
FASTER, SLOWER, CHEAPER = "faster", "slower", "cheaper"
EQ, GE, LE = "eq", "ge", "le"
ABOVE, BELOW = "above", "below"


class InvalidCondition(ValueError):
    pass


@dataclass(frozen=True)
class Host:
    """A provider's tier: the thing prose names ("Baseten's premium tier") across models."""

    provider_id: int
    tier: str = ""

    @classmethod
    def parse(cls, raw):
        text = str(raw or "")
        if text == EVERY_OTHER:
            return EVERY_OTHER_HOST
        provider, _sep, tier = text.partition(":")
        try:
            return cls(int(provider), tier)
        except ValueError:
            raise InvalidCondition(f"host {raw!r} is not provider-id[:tier]") from None

    @property
    def is_every_other(self):
        return self.provider_id == 0 and self.tier == EVERY_OTHER

    def __str__(self):
        if self.is_every_other:
            return EVERY_OTHER
        return f"{self.provider_id}:{self.tier}" if self.tier else str(self.provider_id)

    def serves(self, endpoint):
        return endpoint.provider_id == self.provider_id and (endpoint.tier or "") == self.tier

    def name(self, providers):
        """How a sentence names it, from {provider id: name}."""
        if self.is_every_other:
            from django.utils.translation import gettext as _

            return _("every other host measured")
        name = providers.get(self.provider_id, f"#{self.provider_id}")
        return f"{name} ({self.tier})" if self.tier else name


# The compared side of "X is faster / cheaper than every other host measured": whoever the data
# measures when the page renders, so a host that arrives with a refresh is compared too (a list of
# the hosts measured when the sentence was written would leave it unchecked).
EVERY_OTHER = "*"
EVERY_OTHER_HOST = Host(0, EVERY_OTHER)


def named_provider_ids(hosts):
    return {host.provider_id for host in hosts if host is not None and not host.is_every_other}


@dataclass(frozen=True)
class Condition:
    kind: str
    metric: str
    models: tuple = ()  # model ids; one for every kind but LEADS
    host: Host | None = None
    other: Host | None = None  # COMPARE: the host it is compared with
    quantifier: str = ALL  # LEADS
    n: int | None = None  # LEADS exactly N; RANK at most N; COUNT's number
    relation: str = ""  # COMPARE faster/slower/cheaper; COUNT eq/ge/le; VALUE above/below
    factor: Decimal | None = None  # COMPARE: by at least this factor
    threshold: Decimal | None = None  # VALUE
    negated: bool = False  # "not": "is not measured", "does not rank 2nd or better"
    source_id: int | None = None  # None: the newest value of any source, as data references

    @property
    def model_id(self):
        return self.models[0]

    @property
    def is_price(self):
        return self.metric in PRICES

    @property
    def metric_definition(self):
        return METRICS.get(self.metric)

    def as_dict(self):
        data = {"k": self.kind, "metric": self.metric, "models": list(self.models)}
        optional = {
            "host": str(self.host) if self.host else None,
            "other": str(self.other) if self.other else None,
            "q": self.quantifier if self.kind == LEADS else None,
            "n": self.n,
            "rel": self.relation or None,
            "factor": str(self.factor) if self.factor is not None else None,
            "t": str(self.threshold) if self.threshold is not None else None,
            "neg": True if self.negated else None,
            "source": self.source_id,
        }
        data.update({key: value for key, value in optional.items() if value is not None})
        return data

    @classmethod
    def from_dict(cls, data):
        if not isinstance(data, dict):
            raise InvalidCondition("a condition is an object")
        kind = data.get("k")
        if kind not in KINDS:
            raise InvalidCondition(f"unknown condition {kind!r}")
        metric = data.get("metric") or ""
        if metric not in METRICS and metric not in PRICES:
            raise InvalidCondition(f"unknown metric {metric!r}")
        try:
            models = tuple(int(pk) for pk in data.get("models") or ())
            n = int(data["n"]) if data.get("n") is not None else None
            source_id = int(data["source"]) if data.get("source") is not None else None
            factor = Decimal(str(data["factor"])) if data.get("factor") is not None else None
            threshold = Decimal(str(data["t"])) if data.get("t") is not None else None
        except (TypeError, ValueError, InvalidOperation):
            raise InvalidCondition("a condition's number is not a number") from None
        condition = cls(
            kind=kind,
            metric=metric,
            models=models,
            host=Host.parse(data["host"]) if data.get("host") else None,
            other=Host.parse(data["other"]) if data.get("other") else None,
            quantifier=data.get("q") or ALL,
            n=n,
            relation=data.get("rel") or "",
            factor=factor,
            threshold=threshold,
            negated=bool(data.get("neg")),
            source_id=source_id,
        )
        condition.validate()
        return condition

    def validate(self):
        if not self.models:
            raise InvalidCondition("a condition names at least one model")
        if self.kind != LEADS and len(self.models) != 1:
            raise InvalidCondition("only “leads” reads several models")
        if self.kind in (LEADS, RANK, COMPARE, VALUE, MEASURED) and self.host is None:
            raise InvalidCondition(f"“{self.kind}” needs the host it is about")
        if self.kind == LEADS and self.quantifier not in (ALL, ANY, EXACTLY):
            raise InvalidCondition(f"unknown quantifier {self.quantifier!r}")
        if self.kind == LEADS and self.quantifier == EXACTLY and self.n is None:
            raise InvalidCondition("“exactly N of” needs N")
        if self.kind == RANK and (self.n is None or self.n < 1):
            raise InvalidCondition("a rank condition needs a rank of at least 1")
        if self.kind == COMPARE:
            if self.other is None or self.relation not in (FASTER, SLOWER, CHEAPER):
                raise InvalidCondition("a comparison needs the other host and faster / slower / cheaper")
            if (self.relation == CHEAPER) != self.is_price:
                raise InvalidCondition("“cheaper” compares prices; faster and slower compare a metric")
        if self.kind == COUNT and (self.relation not in (EQ, GE, LE) or self.n is None):
            raise InvalidCondition("a count needs =, ≥ or ≤ and a number")
        if self.kind == VALUE and (self.relation not in (ABOVE, BELOW) or self.threshold is None):
            raise InvalidCondition("a value condition needs above / below and a threshold")
        if self.is_price and self.kind in (LEADS, RANK, COUNT):
            raise InvalidCondition("prices are compared with “cheaper” or a threshold")


@dataclass(frozen=True)
class Claim:
    """The conditions of one statement; all of them must hold."""

    conditions: tuple = field(default_factory=tuple)

    @classmethod
    def parse(cls, raw):
        # A page's statements are read several times a render (the body, the checked summary, which
        # models the page loads): claims are immutable, so each stored condition is parsed once.
        return _parsed(cls, raw or "")

    @classmethod
    def _parse(cls, raw):
        try:
            data = json.loads(raw or "")
        except ValueError:
            raise InvalidCondition("the statement's conditions are not readable") from None
        if isinstance(data, dict):
            data = [data]
        if not isinstance(data, list) or not data:
            raise InvalidCondition("a statement needs at least one condition")
        return cls(tuple(Condition.from_dict(item) for item in data))

    def serialize(self):
        return json.dumps([c.as_dict() for c in self.conditions], separators=(",", ":"), sort_keys=True)

    @property
    def key(self):
        """Equal claims share a key: the review names a statement by it, the page marks it by it."""
        return hashlib.sha1(self.serialize().encode()).hexdigest()[:10]

    @property
    def model_ids(self):
        return {pk for condition in self.conditions for pk in condition.models}


@lru_cache(maxsize=4096)
def _parsed(cls, raw):
    return cls._parse(raw)
