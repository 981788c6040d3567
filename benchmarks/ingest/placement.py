"""Placing upstream rows on our endpoints, and the checks that need no database.

A refresh runs these before it opens its write transaction: if any check fails, nothing is written.
"""

import hashlib
import json
import os
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Max

from ..metrics import get_metric
from ..models import Endpoint
from ..refresh_models import UpstreamMapping
from .adapters import RefreshError
from .adapters.artificial_analysis import API_KEY_ENV

MAX_LISTED_PROBLEMS = 10


class RunRejected(RefreshError):
    """The upstream answered, but what it said cannot be published; lists every problem found."""

    kind = "value"

    def __init__(self, problems):
        self.problems = problems
        shown = problems[:MAX_LISTED_PROBLEMS]
        more = len(problems) - len(shown)
        head = problems[0] if len(problems) == 1 else f"{len(problems)} problems, nothing was written:"
        lines = [head] if len(problems) == 1 else [head, *(f"- {problem}" for problem in shown)]
        if more:
            lines.append(f"- … and {more} more")
        super().__init__("\n".join(lines))


@dataclass
class Placed:
    """An upstream row and the endpoint it describes (None: unmapped or ignored, with the reason)."""

    row: object
    endpoint: Endpoint | None = None
    reason: str = ""
    ignored: bool = False


def scrub(text):
    """Belt and braces: API keys must never reach the run log, whatever an exception said."""
    for key in (os.environ.get(API_KEY_ENV, "").strip(), (settings.OPENROUTER_API_KEY or "").strip()):
        if key and text:
            text = text.replace(key, "***")
    return text


def money(value):
    return format(value.normalize(), "f") if value is not None else None


def price_text(input_per_m, output_per_m, currency):
    return f"{money(input_per_m)} / {money(output_per_m)} {currency}"


# --- mapping ------------------------------------------------------------------------------------
def mapping_version(upstream):
    """Changes whenever a mapping or an endpoint changes, so conditional requests are not trusted
    across a mapping edit (the same upstream body would now be placed differently)."""
    mappings = UpstreamMapping.objects.filter(upstream=upstream).aggregate(
        n=Count("pk"), latest=Max("updated_at")
    )
    endpoints = Endpoint.objects.aggregate(n=Count("pk"), top=Max("pk"))
    return f"{mappings['n']}:{mappings['latest'].isoformat() if mappings['latest'] else '-'}:{endpoints['n']}:{endpoints['top']}"


def place_rows(upstream, rows):
    """Resolve every row through the editor-managed mapping, in two queries whatever the row count."""
    identifiers = [row.upstream_id for row in rows] + [alias for row in rows for alias in row.aliases]
    mappings = {
        mapping.upstream_id: mapping
        for mapping in UpstreamMapping.objects.filter(
            upstream=upstream, upstream_id__in=identifiers
        ).select_related("endpoint__provider", "endpoint__model", "provider", "model")
    }
    pairs = {
        (m.provider_id, m.model_id) for m in mappings.values() if not m.ignored and m.endpoint_id is None
    }
    standard = {}
    if pairs:
        for endpoint in Endpoint.objects.filter(
            tier="", provider_id__in={p for p, _m in pairs}, model_id__in={m for _p, m in pairs}
        ).select_related("provider", "model"):
            standard[(endpoint.provider_id, endpoint.model_id)] = endpoint
    placed = []
    for row in rows:
        # A row read under several upstream keys (LiteLLM) is placed by a mapping on any of them.
        mapping = next((mappings[key] for key in (row.upstream_id, *row.aliases) if key in mappings), None)
        if mapping is None:
            placed.append(Placed(row, reason="no mapping for this identifier"))
        elif mapping.ignored:
            placed.append(Placed(row, ignored=True))
        elif mapping.endpoint_id:
            placed.append(Placed(row, endpoint=mapping.endpoint))
        else:
            endpoint = standard.get((mapping.provider_id, mapping.model_id))
            if endpoint is None:
                placed.append(
                    Placed(
                        row,
                        reason=f"mapped to {mapping.provider} × {mapping.model}, which has no standard-tier endpoint",
                    )
                )
            else:
                placed.append(Placed(row, endpoint=endpoint))
    return placed


def checksum_of(placed):
    """What the run would show readers: the figures of the rows placed on our endpoints, per endpoint.

    Unmapped and ignored rows do not count (a new unmapped row is not news for readers), nor do upstream
    names, identifiers, timestamps, key order or whitespace; a new mapping does (the figures land on
    another endpoint)."""
    figures = []
    for p in placed:
        if p.endpoint is None:
            continue
        row = p.row.canonical()
        figures += [[p.endpoint.pk, key, value] for key, value in row["metrics"].items() if value is not None]
        if row["price"] is not None:
            figures.append([p.endpoint.pk, "price", *row["price"]])
    figures.sort(key=lambda item: json.dumps(item))
    return hashlib.sha256(json.dumps(figures, separators=(",", ":")).encode()).hexdigest()


# --- checks that need no database ---------------------------------------------------------------
def check_values(placed):
    problems = []
    claimed = {}
    for item in placed:
        row = item.row
        label = f"{row.where} ({row.name})"
        for key, value in row.metrics.items():
            message = get_metric(key).validate(value)
            if message:
                problems.append(f"{label}: {message}")
        if row.has_price:
            if row.input_per_m is None or row.output_per_m is None:
                problems.append(f"{label}: the upstream gives only one of the input and output prices")
            for side, value in (("input", row.input_per_m), ("output", row.output_per_m)):
                if value is not None and value < 0:
                    problems.append(
                        f"{label}: the {side} price cannot be negative (got {money(value)} per 1M tokens)"
                    )
        if item.endpoint is not None:
            other = claimed.setdefault(item.endpoint.pk, item)
            if other is not item:
                problems.append(
                    f"{label}: {other.row.name} and {row.name} both map to {item.endpoint}; fix the mapping table"
                )
    return problems
