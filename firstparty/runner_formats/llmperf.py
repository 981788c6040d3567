"""Ray LLMPerf's `*_individual_responses.json`: a JSON list, one object per request with `ttft_s`,
`end_to_end_latency_s`, `number_output_tokens` (counted with the hf-internal-testing/llama-tokenizer
tokenizer), `error_code` (null, an HTTP status, or -1 for a request that failed without one) and
`error_msg`. The file holds no request times: the benchmark's start is given on import."""

from django.utils.translation import gettext as _

from .common import FormatError, load_document

NAME = "LLMPerf"
TOKENIZER = "tokenizer:hf-internal-testing/llama-tokenizer"


def looks_like(document):
    return (isinstance(document, list) and document and isinstance(document[0], dict)
            and "end_to_end_latency_s" in document[0])


def convert(item, base, token_count):
    code = item.get("error_code")
    if code is None:
        return {**base, "outcome": "success", "ttft_s": item.get("ttft_s"),
                "e2e_s": item.get("end_to_end_latency_s"), "output_tokens": item.get("number_output_tokens"),
                "token_count": token_count}
    text = (_("LLMPerf error code %(code)s") % {"code": code}) + (f": {item['error_msg']}" if item.get("error_msg") else "")
    if isinstance(code, int) and 400 <= code <= 599:
        return {**base, "outcome": "http_error", "http_status": code, "error": text[:300]}
    # -1: an exception without a response (connection refused, reset, unreadable stream); LLMPerf does not
    # tell a timeout apart.
    return {**base, "outcome": "malformed", "error": text[:300]}


def read(stream, options):
    document = load_document(stream, NAME)
    if not looks_like(document):
        raise FormatError(_("not an LLMPerf individual_responses.json (a list of requests with end_to_end_latency_s)"))
    base = {**options.endpoint_columns(NAME), "started_at": options.start_time(NAME)}
    token_count = options.token_count or TOKENIZER
    for number, item in enumerate(document, start=1):
        yield number, convert(item, base, token_count) if isinstance(item, dict) else ValueError(_("not a JSON object"))
