"""GuideLLM's benchmark report (`benchmarks.json`, report version of guidellm 0.2–0.3): `benchmarks[]`,
each with `requests.successful / errored / incomplete` lists of requests (`start_time` in epoch seconds,
`time_to_first_token_ms`, `request_latency` in seconds, `output_tokens`) and `request_totals`.

A report may keep only a sample of its requests (guidellm's output sampling): the requests it left out are
counted as skipped, so what is imported is what the file holds. `incomplete` requests were cut off when
the benchmark's time ran out, not failed by the server: they are skipped too.
"""

from django.utils.translation import gettext as _

from .common import FormatError, Skipped, choose, epoch_seconds, load_document

NAME = "GuideLLM"


def looks_like(document):
    return isinstance(document, dict) and isinstance(document.get("benchmarks"), list)


def _describe(benchmark):
    strategy = ((benchmark.get("args") or {}).get("strategy") or {}).get("type_", "?")
    rate = ((benchmark.get("args") or {}).get("strategy") or {}).get("rate")
    return f"{strategy}" + (f" {rate}/s" if rate else "")


def _request(item, base, outcome, token_count):
    row = {**base, "started_at": epoch_seconds(item["start_time"]), "outcome": outcome}
    if outcome == "success":
        ttft_ms = item.get("time_to_first_token_ms")
        row.update(ttft_s=None if ttft_ms is None else ttft_ms / 1000, e2e_s=item.get("request_latency"),
                   output_tokens=item.get("output_tokens"), token_count=token_count)
    else:
        row["error"] = str(item.get("error") or _("errored in GuideLLM"))[:300]
    return row


def read(stream, options):
    document = load_document(stream, NAME)
    if not looks_like(document):
        raise FormatError(_("not a GuideLLM report (an object with a benchmarks list)"))
    benchmark = choose(document["benchmarks"], options, _("benchmarks"), _describe)
    requests = benchmark.get("requests") or {}
    totals = benchmark.get("request_totals") or {}
    base, token_count = options.endpoint_columns(NAME), options.token_count or "tokenizer:guidellm"
    number = 0
    for status, outcome in (("successful", "success"), ("errored", "malformed")):
        listed = requests.get(status) or []
        for item in listed:
            number += 1
            try:
                yield number, _request(item, base, outcome, token_count)
            except (KeyError, TypeError, ValueError):
                yield number, ValueError(_("a request without start_time"))
        left_out = (totals.get(status) or 0) - len(listed)
        if left_out > 0:
            reason = (_("successful request not in the report (GuideLLM kept a sample)") if status == "successful"
                      else _("errored request not in the report (GuideLLM kept a sample)"))
            yield number, Skipped(reason, left_out)
    incomplete = max(len(requests.get("incomplete") or []), totals.get("incomplete") or 0)
    if incomplete:
        yield number, Skipped(_("incomplete: cut off when GuideLLM's benchmark time ran out"), incomplete)
