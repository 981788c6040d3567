"""LiteLLM's model_prices_and_context_window.json: one object keyed by model, USD per token.
Shape and the real file we test on: docs/upstreams.md. What the adapter does with the entries that
carry no usable price (about a fifth of the file), deliberately:

- `sample_spec` documents the format and is not a model;
- `{"alias_of": "<key>"}` entries are skipped: the price is read once, under the key they point to;
- entries that are not text generation (embeddings, images, audio, video, rerank…) are skipped;
- chat entries without `input_cost_per_token` and `output_cost_per_token` (routers, priority-only or
  per-second pricing) are skipped;
- Fireworks names one model twice (`fireworks_ai/glm-5p3` and
  `fireworks_ai/accounts/fireworks/models/glm-5p3`): keys that differ only by the
  `accounts/<account>/models|routers/` path are one row when their prices agree, with the other key
  kept as an alias (a mapping on either places it), so one model is never listed twice as unmapped.

Every skip is counted in the run notes."""

import re

from django.conf import settings

from .base import BaseAdapter, UpstreamRow, parse_json
from .errors import ConfigurationError, SchemaChanged
from .parsing import check_scope, check_string_list, in_scope, kind_of, optional, per_token_to_per_million

SPEC_KEY = "sample_spec"
# Entries priced per token for text generation; embeddings, images and audio are priced otherwise.
TEXT_MODES = {"chat", "completion", "responses"}
ACCOUNT_PATH = re.compile(r"/accounts/[^/]+/(?:models|routers)/")
ALIAS = "alias of another entry (its target is read under its own key)"
NOT_TEXT = "not a text-generation entry (embedding, image, audio, video…)"
NO_TOKEN_PRICE = "no per-token price (router, priority-only, or priced per second / image / request)"


def canonical_key(key):
    return ACCOUNT_PATH.sub("/", key)


def names(key, host):
    """The host and the model a key names: "together_ai/zai-org/GLM-5.3" → together_ai, GLM-5.3."""
    parts = key.split("/")
    provider = parts[0] if len(parts) > 1 else (host if isinstance(host, str) else "")
    return {"provider_hint": provider, "model_hint": parts[-1]}


def read_price_list(document, label, result, patterns=None):
    body = parse_json(document, label)
    if not isinstance(body, dict):
        raise SchemaChanged(
            f"{label}: expected an object keyed by model, found {kind_of(body)} (the upstream format changed)"
        )
    if SPEC_KEY not in body:
        raise SchemaChanged(f"{label}: “{SPEC_KEY}” is missing, so this is probably not LiteLLM's price list")
    groups, hosts = {}, {}
    for key, entry in body.items():
        if key == SPEC_KEY:
            continue
        where = f"{label}[“{key}”]"
        if not isinstance(entry, dict):
            raise SchemaChanged(
                f"{where}: expected an object, found {kind_of(entry)} (the upstream format changed)"
            )
        canonical = canonical_key(key)
        if not (in_scope(key, patterns) or in_scope(canonical, patterns)):
            result.out_of_scope += 1
            continue
        if "alias_of" in entry:
            result.skip(ALIAS)
            continue
        mode = optional(entry, "mode", where)
        if mode is not None and mode not in TEXT_MODES:
            result.skip(NOT_TEXT)
            continue
        if entry.get("input_cost_per_token") is None or entry.get("output_cost_per_token") is None:
            result.skip(NO_TOKEN_PRICE)
            continue
        price = (
            per_token_to_per_million(entry["input_cost_per_token"], f"{where}.input_cost_per_token"),
            per_token_to_per_million(entry["output_cost_per_token"], f"{where}.output_cost_per_token"),
        )
        groups.setdefault(canonical, []).append((key, where, price))
        hosts.setdefault(canonical, entry.get("litellm_provider"))

    merged = 0
    for canonical, members in groups.items():
        if len({price for _key, _where, price in members}) > 1:
            # Same name, different prices: not one model after all; each key stays its own row.
            for key, where, (input_per_m, output_per_m) in members:
                result.rows.append(
                    UpstreamRow(
                        key, key, where, input_per_m=input_per_m, output_per_m=output_per_m,
                        **names(canonical_key(key), hosts.get(canonical)),
                    )
                )
            continue
        keys = [key for key, _where, _price in members]
        identifier = canonical if canonical in keys or len(keys) > 1 else keys[0]
        input_per_m, output_per_m = members[0][2]
        merged += len(keys) - 1
        result.rows.append(
            UpstreamRow(
                upstream_id=identifier,
                name=identifier,
                where=members[0][1],
                input_per_m=input_per_m,
                output_per_m=output_per_m,
                aliases=tuple(key for key in keys if key != identifier),
                **names(canonical, hosts.get(canonical)),
            )
        )
    if merged:
        result.notes.append(
            f"{merged} keys name a model already read under another key (Fireworks account paths); "
            "each such model is one row."
        )
    result.pages += 1
    return result


class LiteLLMAdapter(BaseAdapter):
    """Parameters: {"include": ["together_ai/*", "fireworks_ai/*"]} (required; ["*"] for every entry) limits
    the thousands of entries to the hosts this source covers; entries outside are counted as out of scope."""

    name = "litellm"
    upstream = "litellm"
    conditional = True

    @classmethod
    def check_params(cls, params):
        unknown = set(params) - {"include"}
        if unknown:
            return f"Unknown parameters: {', '.join(sorted(unknown))} (known: include)."
        return check_string_list(params, "include") or check_scope(params)

    def fetch(self):
        message = self.check_params(self.params)
        if message:
            raise ConfigurationError(f"LiteLLM parameters: {message}")
        url = settings.LITELLM_PRICES_URL
        self.progress("Reading the LiteLLM price list")
        with self.open_client() as client:
            (document,), not_modified = self.get_all(client, [url])
        result = self.new_result(validators={url: document.validators()})
        if not_modified:
            result.not_modified = True
            return self.finish(result)
        read_price_list(document, "price list", result, self.params.get("include"))
        result.raw_payload = document.text
        return self.finish(result)
