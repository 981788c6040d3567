"""Artificial Analysis data API: the free paged models list (per-model medians and prices), the paid
per-provider endpoints when the key allows them, and the legacy `/data/llms/models` shape from saved
files. Shapes: docs/upstreams.md. The API key comes from the environment and never leaves the header."""

import os
from pathlib import Path

from django.conf import settings

from .base import (
    BaseAdapter,
    ConfigurationError,
    FetchedDocument,
    FetchResult,
    UpstreamRow,
    UpstreamUnavailable,
    join_pages,
    parse_json,
)
from .parsing import check_string_list, in_scope, number, optional, require, require_list, require_text

API_KEY_ENV = "ARTIFICIAL_ANALYSIS_API_KEY"
MAX_PAGES = 100  # a runaway pagination loop fails the run instead of hammering the API

# Upstream field -> our metric key. AA's "time to first token" counts the first chunk received,
# reasoning or not, which is what the articles call "first chunk".
PERFORMANCE_FIELDS = {
    "median_output_tokens_per_second": "output_speed_median",
    "median_time_to_first_token_seconds": "ttfc_median",
}
PROVIDER_EXTRA_FIELDS = {"endpoint_accuracy_index": "accuracy_index"}


def api_key():
    key = os.environ.get(API_KEY_ENV, "").strip()
    if not key:
        raise ConfigurationError(
            f"{API_KEY_ENV} is not set in the worker's environment; the Artificial Analysis API needs it."
        )
    return key


def read_pricing(item, where):
    pricing = require(item, "pricing", where)
    if pricing is None:
        return None, None
    return (
        number(
            require(pricing, "price_1m_input_tokens", f"{where}.pricing"),
            f"{where}.pricing.price_1m_input_tokens",
        ),
        number(
            require(pricing, "price_1m_output_tokens", f"{where}.pricing"),
            f"{where}.pricing.price_1m_output_tokens",
        ),
    )


def read_metrics(container, where, fields, required=True):
    metrics = {}
    for upstream_key, metric in fields.items():
        value = (
            require(container, upstream_key, where) if required else optional(container, upstream_key, where)
        )
        metrics[metric] = number(value, f"{where}.{upstream_key}")
    return metrics


def model_row(item, where):
    """A model-level row of the free list: AA's median for the model (mapped to provider × model)."""
    identifier = require_text(require(item, "id", where), f"{where}.id")
    name = require_text(require(item, "name", where), f"{where}.name")
    performance = require(item, "performance", where)
    metrics = read_metrics(performance, f"{where}.performance", PERFORMANCE_FIELDS)
    input_per_m, output_per_m = read_pricing(item, where)
    return UpstreamRow(
        upstream_id=identifier,
        name=name,
        where=where,
        metrics=metrics,
        input_per_m=input_per_m,
        output_per_m=output_per_m,
    )


def provider_row(model, item, where):
    identifier = require_text(require(item, "id", where), f"{where}.id")
    label = require_text(require(item, "name", where), f"{where}.name")
    performance = require(item, "performance", where)
    metrics = read_metrics(performance, f"{where}.performance", PERFORMANCE_FIELDS)
    metrics.update(read_metrics(item, where, PROVIDER_EXTRA_FIELDS, required=False))
    input_per_m, output_per_m = read_pricing(item, where)
    return UpstreamRow(
        upstream_id=f"{model['id']}/{identifier}",
        name=f"{model['name']} · {label}",
        where=where,
        metrics=metrics,
        input_per_m=input_per_m,
        output_per_m=output_per_m,
    )


class ArtificialAnalysisAdapter(BaseAdapter):
    """Parameters: {"free_list": true, "include": ["glm-5*"], "models": ["<AA model id or slug>"]}.

    `include` limits the free list by model slug (rows outside are counted as out of scope);
    `models` asks the paid per-provider endpoints for those models. Without a paid-tier key those
    requests are refused (401/403): the run keeps the free data and says so in its notes.
    """

    name = "artificial_analysis"
    upstream = "artificial_analysis"

    @classmethod
    def check_params(cls, params):
        unknown = set(params) - {"free_list", "include", "models"}
        if unknown:
            return f"Unknown parameters: {', '.join(sorted(unknown))} (known: free_list, include, models)."
        if not isinstance(params.get("free_list", True), bool):
            return "“free_list” must be true or false."
        return check_string_list(params, "include") or check_string_list(params, "models")

    @property
    def base_url(self):
        return settings.ARTIFICIAL_ANALYSIS_BASE_URL.rstrip("/")

    def fetch(self):
        message = self.check_params(self.params)
        if message:
            raise ConfigurationError(f"Artificial Analysis parameters: {message}")
        result = FetchResult()
        documents = []
        with self.client_factory(headers={"x-api-key": api_key()}) as client:
            if self.params.get("free_list", True):
                documents += self.fetch_free_list(client, result)
            for model in self.params.get("models") or []:
                documents += self.fetch_providers(client, model, result)
            if client.waits:
                result.notes.append(
                    f"Waited {sum(client.waits):.1f} s for the upstream (retries / Retry-After)."
                )
        result.raw_payload = join_pages(documents) if documents else ""
        return result

    def fetch_free_list(self, client, result):
        documents, page = [], 1
        patterns = self.params.get("include")
        while True:
            self.progress(f"Reading the Artificial Analysis models list, page {page}")
            document = client.get(f"{self.base_url}/language/models/free", params={"page": page})
            body = parse_json(document, f"models list page {page}")
            documents.append(document)
            items = require_list(require(body, "data", f"page {page}"), f"page {page}.data")
            for index, item in enumerate(items):
                where = f"models list page {page}, data[{index}]"
                slug = optional(item, "slug", where) or ""
                if not in_scope(str(slug), patterns):
                    result.out_of_scope += 1
                    continue
                result.rows.append(model_row(item, where))
            pagination = require(body, "pagination", f"page {page}")
            next_page = optional(pagination, "next_page", f"page {page}.pagination")
            if next_page is None:
                return documents
            if not isinstance(next_page, int) or next_page <= page:
                raise ConfigurationError(
                    f"page {page}.pagination.next_page is {next_page!r}: the pagination does not advance"
                )
            if len(documents) >= MAX_PAGES:
                raise ConfigurationError(
                    f"the models list has more than {MAX_PAGES} pages; stopped to protect the rate limit"
                )
            page = next_page

    def fetch_providers(self, client, model, result):
        self.progress(f"Reading Artificial Analysis per-provider data for {model}")
        try:
            document = client.get(
                f"{self.base_url}/language/models/{model}/providers",
                refused={
                    401: "the key does not include the paid per-provider endpoints",
                    403: "the key does not include the paid per-provider endpoints",
                },
            )
        except UpstreamUnavailable as exc:
            if exc.status in (401, 403):
                result.notes.append(f"Per-provider data for {model} skipped: {exc}.")
                return []
            raise
        label = f"providers of {model}"
        body = parse_json(document, label)
        data = require(body, "data", label)
        model_info = require(data, "model", f"{label}.data")
        summary = {
            "id": require_text(require(model_info, "id", f"{label}.data.model"), f"{label}.data.model.id"),
            "name": require_text(
                require(model_info, "name", f"{label}.data.model"), f"{label}.data.model.name"
            ),
        }
        items = require_list(require(data, "providers", f"{label}.data"), f"{label}.data.providers")
        for index, item in enumerate(items):
            result.rows.append(provider_row(summary, item, f"{label}, providers[{index}]"))
        return [document]


def legacy_row(item, where):
    """The legacy shape keeps medians at the top level and reports 0 where nothing was measured."""
    identifier = require_text(require(item, "id", where), f"{where}.id")
    name = require_text(require(item, "name", where), f"{where}.name")
    metrics = read_metrics(item, where, PERFORMANCE_FIELDS)
    for key, value in metrics.items():
        if value is not None and value == 0:
            metrics[key] = None
    input_per_m, output_per_m = read_pricing(item, where)
    return UpstreamRow(
        upstream_id=identifier,
        name=name,
        where=where,
        metrics=metrics,
        input_per_m=input_per_m,
        output_per_m=output_per_m,
    )


class ArtificialAnalysisLegacyFileAdapter(BaseAdapter):
    """A saved response of the legacy `/api/v2/data/llms/models` endpoint (sunset November 2026).

    Parameters: {"path": "<file under REFRESH_FILES_DIR or absolute>", "include": ["glm-5*"]}.
    """

    name = "artificial_analysis_legacy_file"
    upstream = "artificial_analysis"

    @classmethod
    def check_params(cls, params):
        if not isinstance(params.get("path"), str) or not params["path"].strip():
            return "“path” (the saved JSON file) is required."
        return check_string_list(params, "include")

    def fetch(self):
        message = self.check_params(self.params)
        if message:
            raise ConfigurationError(f"Legacy file parameters: {message}")
        path = Path(self.params["path"])
        if not path.is_absolute():
            path = Path(settings.REFRESH_FILES_DIR) / path
        self.progress(f"Reading {path.name}")
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigurationError(f"{path}: file not found") from None
        except UnicodeDecodeError as exc:
            raise ConfigurationError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        document = FetchedDocument(url=str(path), status=200, text=text)
        body = parse_json(document, path.name)
        items = require_list(require(body, "data", path.name), f"{path.name}.data")
        result = FetchResult(raw_payload=text)
        patterns = self.params.get("include")
        for index, item in enumerate(items):
            where = f"{path.name}, data[{index}]"
            if not in_scope(str(optional(item, "slug", where) or ""), patterns):
                result.out_of_scope += 1
                continue
            result.rows.append(legacy_row(item, where))
        return result
