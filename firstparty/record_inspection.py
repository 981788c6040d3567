"""`check_requests`: read a runner's file as the import would, write nothing, and report what it holds
with the same summary as `probe --json` (firstparty.probe_check.summary: the aggregation's definitions)."""

from collections import Counter
from dataclasses import dataclass

from .importers import check_rows
from .record_checks import RowChecker
from .runner_formats import open_rows


@dataclass(slots=True)
class Timed:
    """The four values of a checked record the summary reads (a million of them fit in a few tens of MB)."""

    outcome: str
    ttft_s: float | None
    e2e_s: float | None
    tokens_per_second: float | None
    connect_s: None = None


def inspect_file(stream, name, format_name=None, options=None):
    """A dict: format, records, outcomes, skipped, endpoints, errors, summary. Raises FormatError."""
    from .probe_check import summary

    format_name, rows = open_rows(stream, name, format_name, options)
    kept, endpoints, outcomes = [], Counter(), Counter()

    def accept(fields):
        kept.append(Timed(fields["outcome"], fields["ttft_s"], fields["e2e_s"], fields["tokens_per_second"]))
        endpoints[fields["endpoint_id"]] += 1
        outcomes[fields["outcome"]] += 1

    outcome = check_rows(rows, RowChecker(), accept)
    return {
        "format": format_name,
        "records": outcome.written,
        "outcomes": dict(sorted(outcomes.items())),
        "skipped": [{"reason": reason, "count": count} for reason, count in sorted(outcome.skipped.items())],
        "endpoints": _endpoint_labels(endpoints),
        "errors": outcome.errors,
        "summary": summary(kept),
    }


def _endpoint_labels(counts):
    from benchmarks.models import Endpoint

    endpoints = Endpoint.objects.filter(pk__in=counts).select_related("provider", "model")
    return {f"{e.provider.slug}/{e.model.slug}" + (f"/{e.tier}" if e.tier else ""): counts[e.pk] for e in endpoints}
