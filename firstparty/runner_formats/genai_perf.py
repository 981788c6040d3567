"""GenAI-Perf's `profile_export.json` (written by perf_analyzer): `experiments[]`, each with `requests[]`
holding `timestamp` and `response_timestamps` in nanoseconds and the raw `response_outputs`.

Read from GenAI-Perf's parser (LLMProfileDataParser); no saved file was found in public repositories,
see docs/first-party-runs.md. TTFT is the first response carrying content − timestamp, end-to-end the
last such response − timestamp (GenAI-Perf's `time_to_first_token` and `request_latency`, which drop
empty chunks and `[DONE]` first). Output tokens are the content chunks (`chunks`): GenAI-Perf counts
tokens by re-tokenizing the text, which this import does not do. Request times are used when they are
epoch nanoseconds; otherwise the start is given on import.
"""

import json

from django.utils.translation import gettext as _

from .common import FormatError, choose, epoch_nanoseconds, load_document

NAME = "GenAI-Perf"
EPOCH_NS_AFTER = 10**18  # 2001-09-09: perf_analyzer's steady-clock values are far smaller


def looks_like(document):
    return isinstance(document, dict) and isinstance(document.get("experiments"), list)


def _has_content(output):
    text = output.get("response", output.get("text_output", "")) if isinstance(output, dict) else output
    text = str(text or "").strip()
    if text.startswith("data:"):
        text = text[5:].strip()
    if not text or text == "[DONE]":
        return False
    try:
        chunk = json.loads(text)
    except ValueError:
        return True  # plain text output (Triton's text_output)
    if not isinstance(chunk, dict) or "choices" not in chunk:
        return isinstance(chunk, dict) and bool(chunk.get("text_output"))
    for choice in chunk.get("choices") or []:
        delta = (choice or {}).get("delta") or {}
        if delta.get("content") or (choice or {}).get("text"):
            return True
    return False


def _describe(experiment):
    info = experiment.get("experiment") or {}
    return f"{info.get('mode', '?')} {info.get('value', '?')}"


def read(stream, options):
    document = load_document(stream, NAME)
    if not looks_like(document):
        raise FormatError(_("not a GenAI-Perf profile_export.json (an object with experiments)"))
    experiment = choose(document["experiments"], options, _("experiments"), _describe)
    endpoint = options.endpoint_columns(NAME)
    token_count = options.token_count or "chunks"
    for number, request in enumerate(experiment.get("requests") or [], start=1):
        try:
            start = int(request["timestamp"])
            pairs = zip(request.get("response_timestamps") or [], request.get("response_outputs") or [], strict=False)
            times = [int(t) for t, output in pairs if _has_content(output)]
        except (KeyError, TypeError, ValueError):
            yield number, ValueError(_("a request without timestamp / response_timestamps"))
            continue
        started = epoch_nanoseconds(start) if start > EPOCH_NS_AFTER else options.start_time(NAME)
        row = {**endpoint, "started_at": started}
        if not times:
            yield number, {**row, "outcome": "malformed", "error": _("no response with content")}
            continue
        yield number, {**row, "outcome": "success", "ttft_s": (times[0] - start) / 1e9,
                       "e2e_s": (times[-1] - start) / 1e9, "output_tokens": len(times), "token_count": token_count}
