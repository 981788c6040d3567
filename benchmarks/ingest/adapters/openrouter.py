"""OpenRouter's public per-model endpoint listing: per-provider prices (USD per token, as strings) and the
last 30 minutes of throughput and latency (null, a plain number, or percentiles). Shape: docs/upstreams.md."""

from decimal import Decimal

from django.conf import settings

from .base import (
    BaseAdapter,
    ConfigurationError,
    FetchResult,
    SchemaChanged,
    UpstreamRow,
    join_pages,
    parse_json,
)
from .parsing import (
    check_string_list,
    kind_of,
    number,
    optional,
    per_token_to_per_million,
    require,
    require_list,
    require_text,
)

MILLISECONDS = Decimal(1000)


def percentile_median(value, where):
    """p50 of a `*_last_30m` field: null → None, a plain number → itself, {"p50": …} → its p50."""
    if isinstance(value, dict):
        return number(require(value, "p50", where), f"{where}.p50")
    if value is None or (isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)):
        return number(value, where)
    raise SchemaChanged(
        f"{where}: expected null, a number or percentiles, found {kind_of(value)} (the upstream format changed)"
    )


def endpoint_row(model_id, item, where):
    provider = require_text(require(item, "provider_name", where), f"{where}.provider_name")
    tag = optional(item, "tag", where) or provider
    pricing = require(item, "pricing", where)
    throughput = percentile_median(
        require(item, "throughput_last_30m", where), f"{where}.throughput_last_30m"
    )
    latency_ms = percentile_median(require(item, "latency_last_30m", where), f"{where}.latency_last_30m")
    return UpstreamRow(
        upstream_id=f"{model_id}|{tag}",
        name=optional(item, "name", where) or f"{provider} | {model_id}",
        where=where,
        metrics={
            "output_speed_median": throughput,
            # OpenRouter reports latency (time to first token) in milliseconds; our metric is in seconds.
            "ttft_median": None
            if latency_ms is None
            else (latency_ms / MILLISECONDS).quantize(Decimal("0.000001")),
        },
        input_per_m=per_token_to_per_million(
            require(pricing, "prompt", f"{where}.pricing"), f"{where}.pricing.prompt"
        ),
        output_per_m=per_token_to_per_million(
            require(pricing, "completion", f"{where}.pricing"), f"{where}.pricing.completion"
        ),
    )


class OpenRouterAdapter(BaseAdapter):
    """Parameters: {"models": ["z-ai/glm-5.3", "openai/gpt-oss-120b"]} (OpenRouter "author/slug" ids)."""

    name = "openrouter"
    upstream = "openrouter"
    conditional = True

    @classmethod
    def check_params(cls, params):
        unknown = set(params) - {"models"}
        if unknown:
            return f"Unknown parameters: {', '.join(sorted(unknown))} (known: models)."
        if not params.get("models"):
            return "“models” must list at least one OpenRouter model id such as “z-ai/glm-5.3”."
        message = check_string_list(params, "models")
        if message:
            return message
        bad = [model for model in params["models"] if model.count("/") != 1]
        if bad:
            return f"Model ids look like “author/slug”: {', '.join(bad)}."
        return None

    def fetch(self):
        message = self.check_params(self.params)
        if message:
            raise ConfigurationError(f"OpenRouter parameters: {message}")
        base = settings.OPENROUTER_BASE_URL.rstrip("/")
        models = self.params["models"]
        urls = [f"{base}/models/{model}/endpoints" for model in models]
        self.progress(f"Reading OpenRouter endpoints of {len(models)} model(s)")
        with self.client_factory() as client:
            documents, not_modified = self.get_all(client, urls)
            waits = sum(client.waits)
        result = FetchResult(
            validators={url: doc.validators() for url, doc in zip(urls, documents, strict=True)}
        )
        if waits:
            result.notes.append(f"Waited {waits:.1f} s for the upstream (retries / Retry-After).")
        if not_modified:
            result.not_modified = True
            return result
        for model, document in zip(models, documents, strict=True):
            label = f"endpoints of {model}"
            body = parse_json(document, label)
            data = require(body, "data", label)
            model_id = require_text(require(data, "id", f"{label}.data"), f"{label}.data.id")
            items = require_list(require(data, "endpoints", f"{label}.data"), f"{label}.data.endpoints")
            for index, item in enumerate(items):
                result.rows.append(endpoint_row(model_id, item, f"{label}, endpoints[{index}]"))
        result.raw_payload = join_pages(documents)
        return result
