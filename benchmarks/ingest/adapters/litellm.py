"""LiteLLM's model_prices_and_context_window.json: one object keyed by model, USD per token.
`sample_spec` documents the format and is not a model. Shape: docs/upstreams.md."""

from django.conf import settings

from .base import BaseAdapter, ConfigurationError, FetchResult, SchemaChanged, UpstreamRow, parse_json
from .parsing import check_string_list, in_scope, kind_of, optional, per_token_to_per_million, require

SPEC_KEY = "sample_spec"
# Entries priced per token for text generation; embeddings, images and audio are priced otherwise.
TEXT_MODES = {"chat", "completion", "responses"}


class LiteLLMAdapter(BaseAdapter):
    """Parameters: {"include": ["together_ai/*", "fireworks_ai/*"]} limits the thousands of entries to
    the hosts these pages cover; entries outside are counted as out of scope."""

    name = "litellm"
    upstream = "litellm"
    conditional = True

    @classmethod
    def check_params(cls, params):
        unknown = set(params) - {"include"}
        if unknown:
            return f"Unknown parameters: {', '.join(sorted(unknown))} (known: include)."
        return check_string_list(params, "include")

    def fetch(self):
        message = self.check_params(self.params)
        if message:
            raise ConfigurationError(f"LiteLLM parameters: {message}")
        url = settings.LITELLM_PRICES_URL
        self.progress("Reading the LiteLLM price list")
        with self.client_factory() as client:
            (document,), not_modified = self.get_all(client, [url])
            waits = sum(client.waits)
        result = FetchResult(validators={url: document.validators()})
        if waits:
            result.notes.append(f"Waited {waits:.1f} s for the upstream (retries / Retry-After).")
        if not_modified:
            result.not_modified = True
            return result
        label = "price list"
        body = parse_json(document, label)
        if not isinstance(body, dict):
            raise SchemaChanged(
                f"{label}: expected an object keyed by model, found {kind_of(body)} (the upstream format changed)"
            )
        if SPEC_KEY not in body:
            raise SchemaChanged(
                f"{label}: “{SPEC_KEY}” is missing, so this is probably not LiteLLM's price list"
            )
        patterns = self.params.get("include")
        for key, entry in body.items():
            if key == SPEC_KEY:
                continue
            where = f"{label}[“{key}”]"
            mode = optional(entry, "mode", where)
            if not in_scope(key, patterns) or (mode is not None and mode not in TEXT_MODES):
                result.out_of_scope += 1
                continue
            result.rows.append(
                UpstreamRow(
                    upstream_id=key,
                    name=key,
                    where=where,
                    input_per_m=per_token_to_per_million(
                        require(entry, "input_cost_per_token", where), f"{where}.input_cost_per_token"
                    ),
                    output_per_m=per_token_to_per_million(
                        require(entry, "output_cost_per_token", where), f"{where}.output_cost_per_token"
                    ),
                )
            )
        result.raw_payload = document.text
        return result
