"""NVIDIA aiperf's `profile_export.jsonl`: one record per request, `metadata` (timestamp_ns, credit_phase),
`metrics` ({name: {value, unit}}, times in ms or ns) and `error` (code, type, message) for a failed one.

Read from aiperf's own writer and an example run it ships (docs/first-party-runs.md, "Runners' files").
TTFT is aiperf's `ttft`, end-to-end its `request_latency`, output tokens its `output_sequence_length`
(answer and reasoning tokens, counted by aiperf's tokenizer): with these our tokens/s equals aiperf's
`output_token_throughput_per_user` request by request.
"""

from django.utils.translation import gettext as _

from .common import Skipped, epoch_nanoseconds, seconds
from .native import json_lines

NAME = "aiperf"
CANCELLED = "RequestCancellationError"


def looks_like(first_line):
    return isinstance(first_line, dict) and "metadata" in first_line and "metrics" in first_line


def _metric(metrics, name, required=True):
    metric = metrics.get(name)
    if not isinstance(metric, dict) or "value" not in metric:
        if required:
            raise ValueError(_("aiperf metric %(name)s missing (was the run streamed?)") % {"name": name})
        return None
    return seconds(metric["value"], metric.get("unit", "ms")) if metric.get("unit") != "tokens" else metric["value"]


def _failure(error):
    kind, code = str(error.get("type") or ""), error.get("code")
    text = f"{kind}: {error.get('message') or ''}".strip(": ")[:300]
    if isinstance(code, int) and 400 <= code <= 599:
        return {"outcome": "http_error", "http_status": code, "error": text}
    if "timeout" in kind.lower():
        return {"outcome": "timeout", "error": text}
    return {"outcome": "malformed", "error": text}


def convert(record, endpoint, token_count):
    metadata, metrics = record.get("metadata") or {}, record.get("metrics") or {}
    phase = metadata.get("credit_phase", "profiling")
    if phase != "profiling":
        return Skipped(_("aiperf %(phase)s phase (not part of the measurement)") % {"phase": phase})
    if "timestamp_ns" not in metadata:
        raise ValueError(_("aiperf record without metadata.timestamp_ns"))
    row = {**endpoint, "started_at": epoch_nanoseconds(metadata["timestamp_ns"])}
    error = record.get("error")
    if error:
        if error.get("type") == CANCELLED:
            return Skipped(_("cancelled by aiperf on purpose (--request-cancellation-rate)"))
        return {**row, **_failure(error)}
    return {**row, "outcome": "success", "ttft_s": _metric(metrics, "ttft"),
            "e2e_s": _metric(metrics, "request_latency"),
            "output_tokens": _metric(metrics, "output_sequence_length"), "token_count": token_count}


def read(stream, options):
    endpoint = options.endpoint_columns(NAME)
    token_count = options.token_count or "tokenizer:aiperf"
    for number, record in json_lines(stream):
        if isinstance(record, Exception):
            yield number, record
            continue
        try:
            yield number, convert(record, endpoint, token_count)
        except (ValueError, TypeError, AttributeError) as exc:
            yield number, exc if isinstance(exc, ValueError) else ValueError(_("not an aiperf record"))
