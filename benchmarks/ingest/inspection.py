"""`manage.py check_upstream`: fetch one upstream document (following the adapter's paging), parse and
validate it exactly as a refresh would, and summarise it — without any mapping and without writing.

Used to check an upstream after it changes its format, and to check our parsers against saved real
responses (tests/test_upstream_real_payloads.py)."""

import os
from collections import Counter

from ..metrics import get_metric
from .adapters import FetchResult, RefreshError, UpstreamClient
from .adapters.artificial_analysis import API_KEY_ENV, read_free_list, read_legacy
from .adapters.litellm import read_price_list
from .adapters.openrouter import api_key as openrouter_key
from .adapters.openrouter import read_endpoints
from .placement import money, scrub

ADAPTERS = ("artificial-analysis-free", "artificial-analysis-legacy", "openrouter", "litellm")


def credentials_for(adapter):
    if adapter.startswith("artificial-analysis"):
        key = os.environ.get(API_KEY_ENV, "").strip()
        return {"x-api-key": key} if key else {}
    if adapter == "openrouter" and openrouter_key():
        return {"Authorization": f"Bearer {openrouter_key()}"}
    return {}


def read(adapter, client, url, result):
    if adapter == "artificial-analysis-free":
        read_free_list(client, url, result)
        return
    document = client.get(url)
    label = {"artificial-analysis-legacy": "models", "openrouter": "endpoints", "litellm": "price list"}[
        adapter
    ]
    if adapter == "artificial-analysis-legacy":
        read_legacy(document, label, result)
    elif adapter == "openrouter":
        read_endpoints(document, label, result, with_key=bool(openrouter_key()))
    else:
        read_price_list(document, label, result)


def row_problems(rows):
    """What a refresh would refuse before placing anything: impossible figures, half prices, twins."""
    problems, seen = [], Counter(row.upstream_id for row in rows)
    for row in rows:
        label = f"{row.where} ({row.name})"
        for key, value in row.metrics.items():
            message = get_metric(key).validate(value)
            if message:
                problems.append(f"{label}: {message}")
        if row.has_price and (row.input_per_m is None or row.output_per_m is None):
            problems.append(f"{label}: the upstream gives only one of the input and output prices")
        for side, value in (("input", row.input_per_m), ("output", row.output_per_m)):
            if value is not None and value < 0:
                problems.append(
                    f"{label}: the {side} price cannot be negative (got {money(value)} per 1M tokens)"
                )
    problems += [f"{identifier}: appears {count} times" for identifier, count in seen.items() if count > 1]
    return problems


def check_upstream(adapter, url, client_factory=UpstreamClient):
    """A summary of what the upstream at `url` holds, as a dict (the --json output)."""
    if adapter not in ADAPTERS:
        raise ValueError(f"unknown adapter {adapter!r}; known: {', '.join(ADAPTERS)}")
    result = FetchResult()
    problems = []
    client = client_factory(credentials=credentials_for(adapter))
    try:
        read(adapter, client, url, result)
    except RefreshError as exc:
        problems.append(scrub(str(exc)))
    finally:
        client.close()
    problems += row_problems(result.rows)
    figures = Counter(key for row in result.rows for key, value in row.metrics.items() if value is not None)
    return {
        "adapter": adapter,
        "url": url,
        "pages": result.pages,
        "rows": len(result.rows),
        "figures": dict(sorted(figures.items())),
        "prices": sum(1 for row in result.rows if row.has_price),
        "skipped": dict(sorted(result.skipped.items())),
        "out_of_scope": result.out_of_scope,
        "problems": problems,
        "notes": [scrub(note) for note in result.notes + client.notes],
    }


def summary_lines(summary):
    """The same summary for a person reading a terminal."""
    lines = [
        f"{summary['adapter']}: {summary['url']}",
        f"pages read: {summary['pages']}",
        f"rows: {summary['rows']}",
        f"prices: {summary['prices']}",
    ]
    for key, count in summary["figures"].items():
        lines.append(f"figures ({key}): {count}")
    for reason, count in summary["skipped"].items():
        lines.append(f"skipped ({reason}): {count}")
    for note in summary["notes"]:
        lines.append(f"note: {note}")
    lines.append(f"problems: {len(summary['problems'])}")
    lines += [f"- {problem}" for problem in summary["problems"][:50]]
    if len(summary["problems"]) > 50:
        lines.append(f"- … and {len(summary['problems']) - 50} more")
    return lines
