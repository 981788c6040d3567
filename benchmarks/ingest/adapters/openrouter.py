"""OpenRouter's per-model endpoint listing `GET /models/{author}/{slug}/endpoints`: per-provider prices
(USD per token, as strings) and the last 30 minutes of throughput and latency percentiles. Shape and
real examples: docs/upstreams.md.

- Latency and throughput are null unless the request carries an API key (OPENROUTER_API_KEY, sent as
  `Authorization: Bearer`): the run says so instead of silently publishing prices only.
- An endpoint whose `status` is below 0 is down or degraded: skipped and named in the notes.
- `pricing.discount` is recorded in the notes; the list price is what we store.
- A model OpenRouter no longer lists (404) is a note; the other models of the run still count."""

from decimal import Decimal

from django.conf import settings

from .base import BaseAdapter, UpstreamRow, join_pages, parse_json
from .errors import ConfigurationError, SchemaChanged, UpstreamUnavailable
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
DOWN = "endpoint reported down (status below 0)"


def api_key():
    return (getattr(settings, "OPENROUTER_API_KEY", "") or "").strip()


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
        optional(item, "throughput_last_30m", where), f"{where}.throughput_last_30m"
    )
    latency_ms = percentile_median(optional(item, "latency_last_30m", where), f"{where}.latency_last_30m")
    return UpstreamRow(
        upstream_id=f"{model_id}|{tag}",
        name=optional(item, "name", where) or f"{provider} | {model_id}",
        where=where,
        provider_hint=provider,
        model_hint=model_id.rsplit("/", 1)[-1],
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


def read_endpoints(document, label, result, with_key):
    """Rows of one model's endpoints document; notes for down endpoints, discounts, missing speeds."""
    body = parse_json(document, label)
    data = require(body, "data", label)
    model_id = require_text(require(data, "id", f"{label}.data"), f"{label}.data.id")
    items = require_list(require(data, "endpoints", f"{label}.data"), f"{label}.data.endpoints")
    down, discounted, rows = [], [], []
    for index, item in enumerate(items):
        where = f"{label}, endpoints[{index}]"
        status = optional(item, "status", where)
        name = optional(item, "tag", where) or optional(item, "provider_name", where)
        if isinstance(status, int) and not isinstance(status, bool) and status < 0:
            down.append(f"{name} (status {status})")
            result.skip(DOWN)
            continue
        row = endpoint_row(model_id, item, where)
        discount = number(
            optional(require(item, "pricing", where), "discount", where), f"{where}.pricing.discount"
        )
        if discount:
            discounted.append(f"{name} ({format(discount.normalize(), 'f')})")
        rows.append(row)
    if down:
        result.notes.append(f"{model_id}: skipped endpoints OpenRouter reports down: {', '.join(down)}.")
    if discounted:
        result.notes.append(
            f"{model_id}: OpenRouter lists a discount for {', '.join(discounted)}; "
            "the list price was recorded, not the discounted one."
        )
    if rows and all(value is None for row in rows for value in row.metrics.values()):
        result.notes.append(
            f"{model_id}: no latency or throughput in the answer"
            + (
                "; OpenRouter publishes them only to requests with an API key: set OPENROUTER_API_KEY."
                if not with_key
                else "."
            )
        )
    result.rows += rows
    result.pages += 1
    return rows


class OpenRouterAdapter(BaseAdapter):
    """Parameters: {"models": ["z-ai/glm-5.3", "openai/gpt-oss-120b"]} (OpenRouter "author/slug" ids)."""

    name = "openrouter"
    upstream = "openrouter"
    budget_key = "OPENROUTER_API_KEY"
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
        key = api_key()
        urls = {model: f"{base}/models/{model}/endpoints" for model in self.params["models"]}
        self.progress(f"Reading OpenRouter endpoints of {len(urls)} model(s)")
        result = self.new_result()
        documents, delisted = {}, []
        with self.open_client(credentials={"Authorization": f"Bearer {key}"} if key else None) as client:
            for model, url in urls.items():
                try:
                    documents[model] = client.get(url, validators=self.validators.get(url))
                except UpstreamUnavailable as exc:
                    if exc.status != 404:
                        raise
                    delisted.append(model)
            if documents and all(document.not_modified for document in documents.values()):
                result.validators = {urls[m]: d.validators() for m, d in documents.items()}
                result.not_modified = True
                return self.finish(result)
            # A partly changed answer is read in full: the snapshot keeps every body verbatim.
            for model, document in documents.items():
                if document.not_modified:
                    documents[model] = client.get(urls[model])
        if delisted:
            result.notes.append(
                f"OpenRouter no longer lists {', '.join(delisted)} (HTTP 404); "
                "remove them from this source's parameters."
            )
        result.validators = {urls[m]: d.validators() for m, d in documents.items()}
        for model, document in documents.items():
            # A replayed answer may have been fetched with a key or without: no advice about ours.
            read_endpoints(document, f"endpoints of {model}", result, with_key=bool(key) or self.replay is not None)
        result.raw_payload = join_pages(list(documents.values())) if documents else ""
        return self.finish(result)
