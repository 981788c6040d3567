"""Turn data references into current published figures, in bulk.

Resolution reads a PageData, so references cost no query of their own when the page already
loaded their models, and two queries (measurements, prices) for all of them together otherwise.
"""

import weakref
from dataclasses import dataclass, field
from decimal import Decimal
from types import SimpleNamespace

from django.utils import translation
from django.utils.translation import gettext as _

from articles.blocks.base import BoundChild
from articles.data import PageData
from benchmarks.formatting import DASH, format_decimal, format_metric, format_money

from .refs import ABOVE, COUNT, LEADER, PRICES, RANK, SLOWEST, refs_in_blocks


class RefRequirements:
    """A stand-in block whose `data_requirements` are the models a list of references needs."""

    def data_requirements(self, refs):
        for ref in refs:
            yield SimpleNamespace(pk=ref.model_id), None


REF_REQUIREMENTS = RefRequirements()


def with_ref_requirements(blocks):
    """The blocks plus a stand-in for the references in them, so one PageData loads everything."""
    blocks = list(blocks)
    refs = refs_in_blocks(blocks)
    return blocks + [BoundChild(REF_REQUIREMENTS, refs)] if refs else blocks


def _stub(pk):
    return SimpleNamespace(pk=pk) if pk is not None else None


@dataclass
class Resolved:
    ref: object
    value: Decimal | None = None  # what prints: the figure, or the comparison's result
    measurement: object = None  # the referenced measurement (metric references)
    price: object = None  # the referenced price (price references)
    compared_with: object = None  # the measurement a comparison divides by or subtracts
    sources: list = field(default_factory=list)
    text: str = ""  # a fact printed as words (the leader's name)

    @property
    def endpoint(self):
        if self.measurement is not None:
            return self.measurement.endpoint
        return self.price.endpoint if self.price is not None else None

    @property
    def metric(self):
        return self.ref.metric_definition


def data_for(refs, page_data=None):
    """A PageData holding every model the references need: the page's own when it has them."""
    needed = {ref.model_id for ref in refs}
    if page_data is not None:
        loaded, _sources = page_data.requirements
        if needed <= set(loaded):
            return page_data
    as_of = page_data.as_of if page_data is not None else None
    return PageData(blocks=[BoundChild(REF_REQUIREMENTS, list(refs))], as_of=as_of)


def _ranked(data, ref, for_pick):
    model, source = _stub(ref.model_id), _stub(ref.source_id)
    # A model's "best" value is a pick: where the page data knows freshness, stale rows can't be it.
    # With no fresh row at all the last values stand, marked stale when printed, rather than a dash.
    if for_pick and hasattr(data, "fresh_ranked"):
        return data.fresh_ranked(model, ref.metric, source) or data.ranked(model, ref.metric, source)
    return data.ranked(model, ref.metric, source)


def _resolve_fact(ref, data, ranked):
    """Counts, the leader's name and an endpoint's rank: facts prose states about a ranking."""
    result = Resolved(ref)
    if ref.compare == COUNT:
        result.value = Decimal(len(ranked))
        result.measurement = ranked[0] if ranked else None
    elif ref.compare == LEADER:
        best = _ranked(data, ref, for_pick=True)
        if best:
            result.measurement = best[0]
            result.value = best[0].value
            result.text = best[0].endpoint.label
    else:  # RANK
        position = next((n for n, r in enumerate(ranked, start=1) if r.endpoint_id == ref.endpoint_id), None)
        if position is not None:
            result.value = Decimal(position)
            result.measurement = ranked[position - 1]
    result.sources = list(dict.fromkeys(r.snapshot.source for r in ranked[:1]))
    return result


def _resolve_metric(ref, data):
    result = Resolved(ref)
    ranked = data.ranked(_stub(ref.model_id), ref.metric, _stub(ref.source_id))
    if ref.compare in (COUNT, LEADER, RANK):
        return _resolve_fact(ref, data, ranked)
    if ref.endpoint_id is not None:
        row = next((r for r in ranked if r.endpoint_id == ref.endpoint_id), None)
    else:
        best = _ranked(data, ref, for_pick=True)
        row = best[0] if best else None
    if row is None:
        return result
    result.measurement = row
    result.sources = [row.snapshot.source]
    metric = ref.metric_definition
    if ref.compare == SLOWEST:
        other = ranked[-1] if len(ranked) > 1 else None
        if other is None or other.endpoint_id == row.endpoint_id:
            return result
        numerator, denominator = (
            (row.value, other.value) if metric.higher_is_better else (other.value, row.value)
        )
        result.value = numerator / denominator if denominator else None
    elif ref.compare == ABOVE:
        other = next((r for r in ranked if r.endpoint_id == ref.other_id), None)
        if other is None:
            return result
        result.value = row.value - other.value
    else:
        result.value = row.value
        return result
    result.compared_with = other
    if other.snapshot.source not in result.sources:
        result.sources.append(other.snapshot.source)
    return result


def _resolve_price(ref, data):
    result = Resolved(ref)
    side = PRICES[ref.metric]
    if ref.endpoint_id is not None:
        price = data.prices.get(ref.endpoint_id)
    else:
        candidates = [p for p in data.prices.values() if p.endpoint.model_id == ref.model_id]
        price = min(candidates, key=lambda p: (getattr(p, side), p.endpoint_id), default=None)
    if price is not None:
        result.price = price
        result.value = getattr(price, side)
        result.sources = [price.source]
    return result


def resolve(ref, data):
    return _resolve_price(ref, data) if ref.is_price else _resolve_metric(ref, data)


def resolve_all(refs, data):
    return {ref.key: resolve(ref, data) for ref in refs}


# Per-page memo: the first reference rendered resolves every reference of the page at once.
_page_cache = weakref.WeakKeyDictionary()


def resolve_for_page(refs, page_data=None):
    """{ref.key: Resolved}; with a page's data, all of the page's references are resolved together."""
    if page_data is None:
        return resolve_all(refs, data_for(refs))
    memo = _page_cache.setdefault(page_data, {})
    missing = [ref for ref in refs if ref.key not in memo]
    if missing:
        batch = {ref.key: ref for ref in refs_in_blocks(page_data.blocks) + missing if ref.key not in memo}
        memo.update(resolve_all(batch.values(), data_for(batch.values(), page_data)))
    return {ref.key: memo[ref.key] for ref in refs}


# --- text --------------------------------------------------------------------------------------
def format_resolved(resolved, lang=None):
    """The figure as the page prints it in `lang`: "837.1", "98.74%", "$2.10", "4.2×", "3.20"."""
    ref, value = resolved.ref, resolved.value
    if value is None:
        return DASH
    if ref.is_price:
        return format_money(value, resolved.price.currency, lang=lang)
    metric = ref.metric_definition
    if ref.compare == LEADER:
        return resolved.text
    if ref.compare == COUNT:
        return format_decimal(value, 0, lang=lang)
    if ref.compare == RANK:
        return ordinal(int(value), lang)
    if ref.compare == SLOWEST:
        return _("%(ratio)s×") % {"ratio": format_decimal(value, 1, lang=lang)}
    if ref.compare == ABOVE:
        return format_decimal(value, metric.precision, lang=lang)
    return format_metric(metric, value, lang=lang)


def ordinal(n, lang=None):
    """1st, 2nd, 3rd, 11th, 22nd in English; 1.º, 2.º in Spanish."""
    lang = (lang or translation.get_language() or "en")[:2]
    if lang == "es":
        return f"{n}.º"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def quantity_label(ref):
    if ref.is_price:
        return _("input price per 1M") if ref.metric == "price_input" else _("output price per 1M")
    return str(ref.metric_definition.label)


def describe(ref, endpoint=None, model=None, other=None):
    """What a reference shows, for the editor's token and the review list, in the active language."""
    if ref.endpoint_id is not None:
        subject = (
            f"{endpoint.label} · {endpoint.model.name}"
            if endpoint
            else _("endpoint #%(id)s") % {"id": ref.endpoint_id}
        )
    else:
        name = model.name if model else _("model #%(id)s") % {"id": ref.model_id}
        subject = _("best of %(model)s") % {"model": name}
    text = f"{subject} · {quantity_label(ref)}"
    if ref.compare == COUNT:
        return _("%(model)s · hosts measured on %(metric)s") % {
            "model": model.name if model else ref.model_id, "metric": quantity_label(ref)}
    if ref.compare == LEADER:
        return _("%(model)s · leader on %(metric)s") % {
            "model": model.name if model else ref.model_id, "metric": quantity_label(ref)}
    if ref.compare == RANK:
        return f"{subject} · " + _("rank on %(metric)s") % {"metric": quantity_label(ref)}
    if ref.compare == SLOWEST:
        text += " " + _("× the slowest")
    elif ref.compare == ABOVE:
        other_name = other.label if other else _("endpoint #%(id)s") % {"id": ref.other_id}
        text += " " + _("points above %(other)s") % {"other": other_name}
    return text


def describe_resolved(resolved):
    """describe() with the names the resolution already loaded (no query)."""
    endpoint = resolved.endpoint
    model = endpoint.model if endpoint is not None else None
    other = resolved.compared_with.endpoint if resolved.compared_with is not None else None
    if resolved.ref.endpoint_id is None:
        endpoint = None
    return describe(resolved.ref, endpoint=endpoint, model=model, other=other)


def describe_with_lookups(ref):
    """describe() loading the names it needs (the editor, where no page data exists)."""
    from benchmarks.models import Endpoint, LanguageModel

    ids = [pk for pk in (ref.endpoint_id, ref.other_id) if pk is not None]
    endpoints = Endpoint.objects.select_related("provider", "model").in_bulk(ids) if ids else {}
    endpoint = endpoints.get(ref.endpoint_id)
    model = endpoint.model if endpoint else LanguageModel.objects.filter(pk=ref.model_id).first()
    return describe(ref, endpoint=endpoint, model=model, other=endpoints.get(ref.other_id))


def stale_flag(resolved):
    """The mark a stale table cell carries ("stale · 3 Dec"): a reader of prose is told the same."""
    from django.template.loader import render_to_string

    from articles.figures import Figure

    measurements = (resolved.measurement,) if resolved.measurement is not None else ()
    figure = Figure(row="", column="", text="", measurements=measurements, price=resolved.price, stale=True)
    return render_to_string("articles/includes/stale_flag.html", {"figure": figure})


def resolved_is_stale(resolved, page_data):
    """Whether the page flags this reference as stale: the figure it prints from (the leader, the
    first of a count, the endpoint) is older than its freshness allows. Freshness lives on PageData
    where the project has it; without it nothing is marked."""
    if page_data is None:
        return False
    if resolved.measurement is not None and hasattr(page_data, "is_stale"):
        return page_data.is_stale(resolved.measurement)
    if resolved.price is not None and hasattr(page_data, "price_is_stale"):
        return page_data.price_is_stale(resolved.price)
    return False


def printed_value(resolved):
    """(number as printed, the same number unrounded, unit) of a reference, as format_resolved prints
    it; (None, None, "") where it prints no number (a dash, the leader's name)."""
    from benchmarks.formatting import price_decimals, printed_number, quantize

    ref, value = resolved.ref, resolved.value
    if value is None or ref.compare == LEADER:
        return None, None, ""
    if ref.is_price:
        return quantize(value, price_decimals(value)), value, resolved.price.currency
    metric = ref.metric_definition
    if ref.compare in (COUNT, RANK):
        return value, value, ""
    if ref.compare == SLOWEST:
        return quantize(value, 1), value, "×"
    if ref.compare == ABOVE:
        # A difference of percentages is in percentage points, as the table's difference columns say.
        unit = metric.diff_unit if metric.diff_unit == "pp" else metric.unit
        return quantize(value, metric.precision), value, str(unit)
    return printed_number(metric, value), value, str(metric.unit)


def ref_figures(refs, data):
    """The figures a list of references prints (articles.figures.Figure), resolved with the page's data:
    the text, the number printed and its unrounded value, and the stale flag the page prints beside it."""
    from articles.figures import PRICE, Figure

    figures = []
    for ref in refs:
        resolved = resolve_for_page([ref], data)[ref.key]
        behind = tuple(r for r in (resolved.measurement, resolved.compared_with) if r is not None)
        value, exact, unit = printed_value(resolved)
        figures.append(
            Figure(
                row=describe_resolved(resolved),
                column="",
                text=format_resolved(resolved),
                endpoint=resolved.endpoint,
                metric=PRICE if ref.is_price else ref.metric,
                measurements=behind,
                price=resolved.price,
                slot=f"ref:{ref.key}",
                stale=resolved.value is not None and resolved_is_stale(resolved, data),
                value=value,
                unit=unit,
                exact=exact,
            )
        )
    return figures
