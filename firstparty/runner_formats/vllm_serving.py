"""vLLM's `benchmark_serving.py` / `vllm bench serve` result JSON saved with `--save-result
--save-detailed`: parallel per-request lists `ttfts` (s), `itls` (s between chunks), `output_lens`,
`errors` ("" for a request that succeeded), beside the run's own summary (`median_ttft_ms`, …).

Read from vLLM's writer (`calculate_metrics` and the result dict of benchmark_serving.py); no saved file
with the per-request lists was found in public repositories, see docs/first-party-runs.md. End-to-end is
`latencies` when the file has it, otherwise TTFT plus the inter-chunk gaps, which is how vLLM's request
function measures it (last chunk − start). The file has no request times: the start is given on import.
"""

import re

from django.utils.translation import gettext as _

from .common import FormatError, load_document

NAME = "vLLM benchmark_serving"
PER_REQUEST = ("ttfts", "itls", "output_lens", "errors")
TOKENIZER_NAME = re.compile(r"[\w./+-]{1,50}")


def looks_like(document):
    return isinstance(document, dict) and ("ttfts" in document or "median_ttft_ms" in document)


def read(stream, options):
    document = load_document(stream, NAME)
    if not looks_like(document):
        raise FormatError(_("not a vLLM benchmark result (an object with ttfts)"))
    missing = [key for key in PER_REQUEST if not isinstance(document.get(key), list)]
    if missing:
        raise FormatError(_("The vLLM result has no per-request lists (%(keys)s): save it with --save-result "
                            "--save-detailed.") % {"keys": ", ".join(missing)})
    lengths = {len(document[key]) for key in PER_REQUEST}
    if len(lengths) != 1:
        raise FormatError(_("The vLLM result's per-request lists differ in length."))
    base = {**options.endpoint_columns(NAME), "started_at": options.start_time(NAME)}
    tokenizer = str(document.get("tokenizer_id") or "")
    token_count = options.token_count or (f"tokenizer:{tokenizer}" if TOKENIZER_NAME.fullmatch(tokenizer)
                                          else "tokenizer:vllm")
    latencies = document.get("latencies") if isinstance(document.get("latencies"), list) else None
    for index, (ttft, itl, tokens, error) in enumerate(zip(*(document[key] for key in PER_REQUEST), strict=True)):
        if error:
            kind = "timeout" if "timeout" in str(error).lower() else "malformed"
            yield index + 1, {**base, "outcome": kind, "error": str(error).strip()[-300:]}
            continue
        try:
            e2e = latencies[index] if latencies else ttft + sum(itl)
        except TypeError:
            yield index + 1, ValueError(_("ttfts/itls hold something that is not a number"))
            continue
        yield index + 1, {**base, "outcome": "success", "ttft_s": ttft, "e2e_s": e2e, "output_tokens": tokens,
                          "token_count": token_count}
