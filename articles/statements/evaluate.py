"""Whether a statement's conditions hold on the data a page shows, and which figures decide it.

Evaluation reads a PageData, the same one the page's blocks render from, so a statement is judged
on the same snapshots, windows and freshness rules as the figures beside it: a leader is chosen
among fresh rows as data references' picks are, a rank and a count among every printed row.
"""

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from types import SimpleNamespace

from articles.datarefs.refs import PRICES
from articles.datarefs.resolve import data_for

from .conditions import (
    ABOVE,
    ALL,
    CHEAPER,
    COMPARE,
    COUNT,
    EQ,
    EXACTLY,
    FASTER,
    GE,
    LE,
    LEADS,
    MEASURED,
    RANK,
    VALUE,
    Host,
)


@dataclass
class Outcome:
    holds: bool
    evidence: list = field(default_factory=list)  # measurements and prices that decided it
    failed: list = field(default_factory=list)  # the conditions that do not hold

    @property
    def since(self):
        """When the data that decided it was published: a mark says "since" this date."""
        moments = []
        for row in self.evidence:
            snapshot = getattr(row, "snapshot", None)
            if snapshot is not None:
                moments.append(snapshot.published_at or snapshot.measured_at)
            elif getattr(row, "created_at", None) is not None:
                moments.append(row.created_at)
        return max(moments, default=None)


def _stub(pk):
    return SimpleNamespace(pk=pk) if pk is not None else None


def _rows(condition, data, model_id, fresh=False):
    model, source = _stub(model_id), _stub(condition.source_id)
    if fresh and hasattr(data, "fresh_ranked"):
        return data.fresh_ranked(model, condition.metric, source) or data.ranked(model, condition.metric, source)
    return data.ranked(model, condition.metric, source)


def _host_row(rows, host):
    return next((row for row in rows if host.serves(row.endpoint)), None)


def _leads(condition, data):
    decided, led = [], 0  # (leads, ranked rows, the host's row) per model with figures
    for model_id in condition.models:
        rows = _rows(condition, data, model_id, fresh=True)
        if not rows:
            continue
        leads = condition.host.serves(rows[0].endpoint)
        decided.append((leads, rows, _host_row(rows, condition.host)))
        led += leads
    total = len(condition.models)
    if condition.quantifier == ALL:
        holds = led == total
    elif condition.quantifier == "any":
        holds = led >= 1
    else:  # exactly N of them
        holds = led == condition.n
    return holds, _lead_evidence(condition, decided, led)


def _lead_evidence(condition, decided, led):
    """The figures that make a lead claim false, and only those: a reader (or the review) shown
    another model's leader, which the claim never disputed, looks for a change that is not there.

    Too few leads ("leads two of three", "leads all"): the models the host does not lead, each
    with its leader and the host's figure. Too many ("leads none", a denied lead): the models it
    leads, each with the runner-up it is ahead of. Of those, the models whose figures are the newest:
    the claim held until data changed, and the newest figures are the change."""
    too_many = condition.negated or (condition.quantifier == EXACTLY and led > (condition.n or 0))
    chosen = [item for item in decided if item[0] == too_many] or decided
    evidence = []
    for leads, rows, own in chosen:
        if leads:
            shown = rows[:2]  # the host, and who it is ahead of
        else:
            shown = [rows[0]] + ([own] if own is not None else [])
        evidence.append(shown)
    if len(evidence) > 1:
        newest = max(_moment(rows) for rows in evidence)
        evidence = [rows for rows in evidence if _moment(rows) == newest]
    return [row for rows in evidence for row in rows]


def _moment(rows):
    moments = [row.snapshot.published_at or row.snapshot.measured_at for row in rows]
    return max((moment for moment in moments if moment is not None), default=None) or datetime.min.replace(
        tzinfo=UTC)


def _rank(condition, data):
    rows = _rows(condition, data, condition.model_id)
    own = _host_row(rows, condition.host)
    if own is None:
        return False, rows[:1]
    position = rows.index(own) + 1
    return position <= condition.n, rows[: max(position, 1)]


def _compare(condition, data):
    if condition.other.is_every_other:
        return _compare_with_every_other(condition, data)
    if condition.relation == CHEAPER:
        side = PRICES[condition.metric]
        own, other = (_price_of(data, condition.model_id, host) for host in (condition.host, condition.other))
        if own is None or other is None:
            return False, [p for p in (own, other) if p is not None]
        mine, theirs = getattr(own, side), getattr(other, side)
        if condition.factor is None:
            return mine < theirs, [own, other]
        return mine * condition.factor <= theirs, [own, other]
    rows = _rows(condition, data, condition.model_id)
    own, other = _host_row(rows, condition.host), _host_row(rows, condition.other)
    if own is None or other is None:
        return False, [r for r in (own, other) if r is not None]
    better, worse = (own, other) if condition.relation == FASTER else (other, own)
    higher = condition.metric_definition.higher_is_better
    good, bad = (better.value, worse.value) if higher else (worse.value, better.value)
    if condition.factor is None:
        return good > bad, [own, other]
    return bad > 0 and good >= bad * condition.factor, [own, other]


def _compare_with_every_other(condition, data):
    """Holds when the comparison holds against each other host the data has on the model (prices
    or the metric's figures, as the pair comparison reads them); the evidence is the pairs that fail."""
    if condition.relation == CHEAPER:
        endpoints = [p.endpoint for p in data.prices.values() if p.endpoint.model_id == condition.model_id]
    else:
        endpoints = [row.endpoint for row in _rows(condition, data, condition.model_id)]
    if not any(condition.host.serves(endpoint) for endpoint in endpoints):
        return False, []
    others = dict.fromkeys(Host(e.provider_id, e.tier or "") for e in endpoints if not condition.host.serves(e))
    failed, evidence = [], []
    for other in others:
        holds, rows = _compare(replace(condition, other=other), data)
        evidence += [row for row in rows if row not in evidence]
        if not holds:
            failed += [row for row in rows if row not in failed]
    return not failed, failed or evidence


def _price_of(data, model_id, host):
    return next(
        (p for p in data.prices.values() if p.endpoint.model_id == model_id and host.serves(p.endpoint)), None
    )


def _count(condition, data):
    rows = _rows(condition, data, condition.model_id)
    n = len(rows)
    holds = {EQ: n == condition.n, GE: n >= condition.n, LE: n <= condition.n}[condition.relation]
    return holds, rows


def _value(condition, data):
    if condition.is_price:
        price = _price_of(data, condition.model_id, condition.host)
        if price is None:
            return False, []
        value, evidence = getattr(price, PRICES[condition.metric]), [price]
    else:
        row = _host_row(_rows(condition, data, condition.model_id), condition.host)
        if row is None:
            return False, []
        value, evidence = row.value, [row]
    holds = value > condition.threshold if condition.relation == ABOVE else value < condition.threshold
    return holds, evidence


def _measured(condition, data):
    if condition.is_price:
        row = _price_of(data, condition.model_id, condition.host)
    else:
        row = _host_row(_rows(condition, data, condition.model_id), condition.host)
    found = row is not None
    return found, [row] if found else []


CHECKS = {LEADS: _leads, RANK: _rank, COMPARE: _compare, COUNT: _count, VALUE: _value, MEASURED: _measured}


def evaluate(claim, page_data=None):
    """Outcome of a claim on a page's data (loaded for the claim's models when the page lacks them)."""
    data = data_for([SimpleNamespace(model_id=pk) for pk in sorted(claim.model_ids)], page_data)
    outcome = Outcome(holds=True)
    for condition in claim.conditions:
        holds, evidence = CHECKS[condition.kind](condition, data)
        # "not": any condition can be denied ("is not measured", "does not rank 2nd or better").
        if holds == condition.negated:
            outcome.holds = False
            outcome.failed.append(condition)
            outcome.evidence.extend(row for row in evidence if row not in outcome.evidence)
    return outcome
