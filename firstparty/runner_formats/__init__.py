"""Runners' files as they are: our own JSONL/CSV and the per-request exports of aiperf, GenAI-Perf,
LLMPerf, vLLM's benchmark_serving and GuideLLM, each read into our record columns (docs/first-party-runs.md).

`open_rows(stream, name, format, options)` returns the format's name and an iterator of (row number,
row) where row is a dict of our columns (checked afterwards by record_checks.RowChecker), an Exception
for that row, or a Skipped (a request the runner itself set apart). The format is given or detected
from the file's name and first bytes.
"""

import json

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import aiperf, genai_perf, guidellm, llmperf, native, vllm_serving
from .common import MAX_DOCUMENT_BYTES, FormatError, ReadOptions, Skipped

__all__ = ["FORMATS", "FormatError", "ReadOptions", "Skipped", "detect", "open_rows"]

# format name -> (reader, description)
FORMATS = {
    "jsonl": (native.read_jsonl, gettext_lazy("our JSONL (one record per line)")),
    "csv": (native.read_csv, gettext_lazy("our CSV (header row, one record per row)")),
    "aiperf": (aiperf.read, gettext_lazy("aiperf profile_export.jsonl")),
    "genai-perf": (genai_perf.read, gettext_lazy("GenAI-Perf profile_export.json")),
    "llmperf": (llmperf.read, gettext_lazy("LLMPerf *_individual_responses.json")),
    "vllm": (vllm_serving.read, gettext_lazy("vLLM benchmark_serving result JSON (--save-detailed)")),
    "guidellm": (guidellm.read, gettext_lazy("GuideLLM benchmarks.json report")),
}
JSON_DOCUMENTS = (("genai-perf", genai_perf), ("guidellm", guidellm), ("vllm", vllm_serving), ("llmperf", llmperf))
SUFFIXES = (".jsonl", ".ndjson", ".csv", ".json")
DETECT_BYTES = 1 << 16


def check_suffix(name):
    if not name.lower().endswith(SUFFIXES):
        raise FormatError(_("%(name)s: use a .jsonl, .csv or .json file.") % {"name": name})


def detect(stream, name):
    """The format of a file from its name and its first bytes; the stream is rewound."""
    check_suffix(name)
    lower = name.lower()
    if lower.endswith(".csv"):
        return "csv"
    head = stream.read(DETECT_BYTES)
    stream.seek(0)
    if lower.endswith((".jsonl", ".ndjson")):
        first = head.removeprefix(b"\xef\xbb\xbf").split(b"\n", 1)[0]
        try:
            return "aiperf" if aiperf.looks_like(json.loads(first)) else "jsonl"
        except ValueError:
            return "jsonl"  # the line's own error is reported by the reader
    data = head + stream.read(MAX_DOCUMENT_BYTES) if len(head) == DETECT_BYTES else head  # a report: read whole
    stream.seek(0)
    try:
        document = json.loads(data.removeprefix(b"\xef\xbb\xbf"))
    except ValueError as exc:
        raise FormatError(_("%(name)s is not a JSON document: %(error)s") % {"name": name, "error": exc}) from None
    for format_name, module in JSON_DOCUMENTS:
        if module.looks_like(document):
            return format_name
    raise FormatError(_("%(name)s is not a runner file this import knows (give its format: %(formats)s).")
                      % {"name": name, "formats": ", ".join(FORMATS)})


def open_rows(stream, name, format_name=None, options=None):
    """(format name, iterator of (row number, dict | Exception | Skipped))."""
    check_suffix(name)
    format_name = format_name or detect(stream, name)
    if format_name not in FORMATS:
        raise FormatError(_("unknown format %(format)r (one of %(formats)s)")
                          % {"format": format_name, "formats": ", ".join(FORMATS)})
    return format_name, FORMATS[format_name][0](stream, options or ReadOptions())
