"""Artificial Analysis data API (shapes: docs/upstreams.md):

- the free models list `GET /language/models/free?page=N` (per-model medians and prices), paged until
  `pagination.has_more` is false;
- per-provider data, Commercial tier only: the `providers` array of `GET /language/models/{slug}`.
  No public project has saved a real Commercial response, so this parser follows AA's published
  OpenAPI document (its `commercial_tier` example is `tests/upstream_examples/documented_…`);
- the legacy `GET /data/llms/models` (retired 2026-11-04) from saved files, where 0 means "not measured".

The API key comes from the environment and is only ever sent to the API's own origin."""

import os
from pathlib import Path

from django.conf import settings

from .base import BaseAdapter, UpstreamRow, join_pages, parse_json
from .errors import ConfigurationError, SchemaChanged, UpstreamUnavailable
from .http_client import FetchedDocument
from .parsing import (
    check_scope,
    check_string_list,
    in_scope,
    number,
    optional,
    require,
    require_list,
    require_text,
)

API_KEY_ENV = "ARTIFICIAL_ANALYSIS_API_KEY"
# About 600 models at 200 a page today; a list that keeps saying "has_more" fails the run instead of
# spending the day's 100 requests.
MAX_PAGES = 25

# Upstream field -> our metric key. AA's "time to first token" counts the first chunk received,
# reasoning or not, which is what the articles call "first chunk".
PERFORMANCE_FIELDS = {
    "median_output_tokens_per_second": "output_speed_median",
    "median_time_to_first_token_seconds": "ttfc_median",
}
# Not in AA's OpenAPI document yet; read when present (AA announced the index in 2026-08).
PROVIDER_EXTRA_FIELDS = {"endpoint_accuracy_index": "accuracy_index"}
NOT_COMMERCIAL = "per-provider data needs the Artificial Analysis Commercial tier"


def api_key():
    key = os.environ.get(API_KEY_ENV, "").strip()
    if not key:
        raise ConfigurationError(
            f"{API_KEY_ENV} is not set in the worker's environment; the Artificial Analysis API needs it."
        )
    return key


def read_pricing(item, where, zero_is_missing=False):
    pricing = require(item, "pricing", where)
    if pricing is None:
        return None, None
    input_per_m = number(
        require(pricing, "price_1m_input_tokens", f"{where}.pricing"),
        f"{where}.pricing.price_1m_input_tokens",
    )
    output_per_m = number(
        require(pricing, "price_1m_output_tokens", f"{where}.pricing"),
        f"{where}.pricing.price_1m_output_tokens",
    )
    if zero_is_missing and input_per_m == 0 and output_per_m == 0:
        return None, None  # legacy: 0/0 is "no price measured", not a free model
    return input_per_m, output_per_m


def read_metrics(container, where, fields, required=True):
    if container is None:
        return dict.fromkeys(fields.values())
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
    metrics = read_metrics(require(item, "performance", where), f"{where}.performance", PERFORMANCE_FIELDS)
    input_per_m, output_per_m = read_pricing(item, where)
    return UpstreamRow(
        upstream_id=identifier,
        name=name,
        where=where,
        metrics=metrics,
        input_per_m=input_per_m,
        output_per_m=output_per_m,
        provider_hint=creator_name(item),
        model_hint=name,
    )


def creator_name(item):
    """The model creator AA names (a model-level row describes its maker's own API), or ""."""
    creator = item.get("model_creator") if isinstance(item, dict) else None
    name = creator.get("name") if isinstance(creator, dict) else None
    return name.strip() if isinstance(name, str) else ""


def provider_row(model, item, where):
    identifier = require_text(require(item, "id", where), f"{where}.id")
    label = require_text(require(item, "name", where), f"{where}.name")
    metrics = read_metrics(require(item, "performance", where), f"{where}.performance", PERFORMANCE_FIELDS)
    metrics.update(read_metrics(item, where, PROVIDER_EXTRA_FIELDS, required=False))
    input_per_m, output_per_m = read_pricing(item, where)
    return UpstreamRow(
        upstream_id=f"{model['id']}/{identifier}",
        name=f"{model['name']} · {label}",
        where=where,
        metrics=metrics,
        input_per_m=input_per_m,
        output_per_m=output_per_m,
        provider_hint=label,
        model_hint=model["name"],
    )


def read_free_page(body, page, result, patterns=None, seen=None):
    """Rows of one free-list page; returns (has_more, total_pages, tier)."""
    label = f"models list page {page}"
    items = require_list(require(body, "data", label), f"{label}.data")
    seen = set() if seen is None else seen
    for index, item in enumerate(items):
        where = f"{label}, data[{index}]"
        if not in_scope(str(optional(item, "slug", where) or ""), patterns):
            result.out_of_scope += 1
            continue
        row = model_row(item, where)
        if row.upstream_id in seen:
            # The list is not sorted stably between requests: a model can show up on two pages.
            result.skip("the same model appeared on two pages (kept once)")
            continue
        seen.add(row.upstream_id)
        result.rows.append(row)
    pagination = require(body, "pagination", label)
    has_more = require(pagination, "has_more", f"{label}.pagination")
    if not isinstance(has_more, bool):
        raise SchemaChanged(f"{label}.pagination.has_more: expected true or false, found {has_more!r}")
    total = optional(pagination, "total_pages", f"{label}.pagination")
    return has_more, total if isinstance(total, int) else None, optional(body, "tier", label)


FREE_LIST = "free_list"


def read_free_list(client, url, result, patterns=None, progress=None, max_pages=MAX_PAGES, expected_pages=None):
    """Every page of the free list, until `has_more` is false; the documents, in order.

    Nothing is started that the request budget cannot finish: not the list when it had more pages at the
    last run than the budget allows, not page 2 when page 1 announces more pages than that."""
    if expected_pages:
        client.ensure_budget(
            expected_pages, "models list", f"the list had {expected_pages} pages at the last run"
        )
    documents, seen, page, tier = [], set(), 1, None
    while True:
        if progress:
            progress(f"Reading the Artificial Analysis models list, page {page}")
        document = client.get(url, params={"page": page})
        body = parse_json(document, f"models list page {page}")
        documents.append(document)
        before = len(result.rows)
        has_more, total, tier = read_free_page(body, page, result, patterns, seen)
        if total is not None:
            result.list_pages[FREE_LIST] = total
        if not has_more:
            result.list_pages[FREE_LIST] = page
            break
        if total is not None and page >= total:
            raise SchemaChanged(
                f"models list page {page}: has_more is true but total_pages is {total}; "
                "the pagination does not add up"
            )
        if len(result.rows) == before and not body.get("data"):
            raise SchemaChanged(f"models list page {page}: no rows, yet has_more is true")
        if page >= max_pages:
            raise SchemaChanged(
                f"the models list still has more after {max_pages} pages; stopped to protect the request budget"
            )
        if total is not None:
            client.ensure_budget(total - page, f"models list page {page}", f"it announces {total} pages")
        page += 1
    result.pages += len(documents)
    return documents, tier


def read_commercial_model(document, model, result):
    """Rows of the `providers` array of one `/language/models/{slug}` answer (Commercial only)."""
    label = f"providers of {model}"
    body = parse_json(document, label)
    data = require(body, "data", label)
    summary = {
        "id": require_text(require(data, "id", f"{label}.data"), f"{label}.data.id"),
        "name": require_text(require(data, "name", f"{label}.data"), f"{label}.data.name"),
    }
    providers = optional(data, "providers", f"{label}.data")
    if providers is None:
        tier = optional(body, "tier", label) or "unknown"
        result.notes.append(
            f"Per-provider data for {model} skipped: the answer (tier “{tier}”) has no providers; {NOT_COMMERCIAL}."
        )
        return False
    items = require_list(providers, f"{label}.data.providers")
    for index, item in enumerate(items):
        result.rows.append(provider_row(summary, item, f"{label}, providers[{index}]"))
    result.pages += 1
    return True


class ArtificialAnalysisAdapter(BaseAdapter):
    """Parameters: {"free_list": true, "include": ["glm-5*"], "models": ["<AA model slug>"]}.

    The source's scope: `include` limits the free list by model slug, or, without it, the free list
    is read for exactly the `models` slugs (rows outside are counted as out of scope); one of the two
    is required (["*"]: every model). `models` also asks for the Commercial per-provider data of those
    models. A key without that tier is refused (403) or answered without providers: the run keeps the
    free data and says so.
    """

    budget_key = API_KEY_ENV
    name = "artificial_analysis"
    upstream = "artificial_analysis"

    @classmethod
    def check_params(cls, params):
        unknown = set(params) - {"free_list", "include", "models"}
        if unknown:
            return f"Unknown parameters: {', '.join(sorted(unknown))} (known: free_list, include, models)."
        if not isinstance(params.get("free_list", True), bool):
            return "“free_list” must be true or false."
        if params.get("free_list") is False and not params.get("models"):
            return "With “free_list” false, “models” must name the models whose per-provider data to read."
        return (
            check_string_list(params, "include")
            or check_string_list(params, "models")
            or check_scope(params, ("include", "models"))
        )

    def free_list_scope(self):
        """The free-list rows this source covers: its `include` patterns, else exactly its `models`."""
        return self.params.get("include") or list(self.params.get("models") or [])

    @property
    def base_url(self):
        return settings.ARTIFICIAL_ANALYSIS_BASE_URL.rstrip("/")

    def fetch(self):
        message = self.check_params(self.params)
        if message:
            raise ConfigurationError(f"Artificial Analysis parameters: {message}")
        result = self.new_result()
        documents, tier = [], None
        with self.open_client(credentials={} if self.replay else {"x-api-key": api_key()}) as client:
            if self.params.get("free_list", True):
                pages, tier = read_free_list(
                    client,
                    f"{self.base_url}/language/models/free",
                    result,
                    self.free_list_scope(),
                    self.progress,
                    expected_pages=self.last_pages.get(FREE_LIST),
                )
                documents += pages
            models = self.params.get("models") or []
            if models and tier == "free":
                # The free list says which tier the key has: asking would only spend the budget on 403s.
                result.notes.append(
                    f"Per-provider data for {', '.join(models)} skipped without asking: the key is Free tier "
                    f"and {NOT_COMMERCIAL}."
                )
                models = []
            for model in models:
                documents += self.fetch_providers(client, model, result)
        result.raw_payload = join_pages(documents) if documents else ""
        return self.finish(result)

    def fetch_providers(self, client, model, result):
        self.progress(f"Reading Artificial Analysis per-provider data for {model}")
        try:
            document = client.get(
                f"{self.base_url}/language/models/{model}",
                refused={
                    401: "the API key was refused",
                    403: NOT_COMMERCIAL,
                    404: "Artificial Analysis has no model with this slug",
                },
            )
        except UpstreamUnavailable as exc:
            if exc.status in (401, 403, 404):
                # The free-tier part of the run stands on its own; this part is only missing.
                result.notes.append(f"Per-provider data for {model} skipped: {exc}.")
                return []
            raise
        return [document] if read_commercial_model(document, model, result) else []


def legacy_row(item, where):
    """The legacy shape keeps medians at the top level and reports 0 where nothing was measured,
    for speeds, times and prices alike (178 of 542 rows of one real response had price 0/0)."""
    identifier = require_text(require(item, "id", where), f"{where}.id")
    name = require_text(require(item, "name", where), f"{where}.name")
    metrics = read_metrics(item, where, PERFORMANCE_FIELDS)
    for key, value in metrics.items():
        if value is not None and value == 0:
            metrics[key] = None
    input_per_m, output_per_m = read_pricing(item, where, zero_is_missing=True)
    return UpstreamRow(
        upstream_id=identifier,
        name=name,
        where=where,
        metrics=metrics,
        input_per_m=input_per_m,
        output_per_m=output_per_m,
        provider_hint=creator_name(item),
        model_hint=name,
    )


def read_legacy(document, label, result, patterns=None):
    body = parse_json(document, label)
    items = require_list(require(body, "data", label), f"{label}.data")
    for index, item in enumerate(items):
        where = f"{label}, data[{index}]"
        if not in_scope(str(optional(item, "slug", where) or ""), patterns):
            result.out_of_scope += 1
            continue
        row = legacy_row(item, where)
        if not row.has_price and not any(value is not None for value in row.metrics.values()):
            result.skip("nothing measured (every figure 0)")
            continue
        result.rows.append(row)
    result.pages += 1
    return result


class ArtificialAnalysisLegacyFileAdapter(BaseAdapter):
    """A saved response of the legacy `/api/v2/data/llms/models` endpoint (retired 2026-11-04).

    Parameters: {"path": "<file under REFRESH_FILES_DIR or absolute>", "include": ["glm-5*"]}.
    """

    name = "artificial_analysis_legacy_file"
    upstream = "artificial_analysis"

    @classmethod
    def check_params(cls, params):
        if not isinstance(params.get("path"), str) or not params["path"].strip():
            return "“path” (the saved JSON file) is required."
        return check_string_list(params, "include") or check_scope(params)

    def fetch(self):
        message = self.check_params(self.params)
        if message:
            raise ConfigurationError(f"Legacy file parameters: {message}")
        if self.replay is not None:
            name, text = self.replay.next(f"the saved file {self.params['path']}")
            self.progress(f"Replaying {name}")
            document = FetchedDocument(url=name, status=200, text=text)
            result = read_legacy(document, name, self.new_result(raw_payload=text), self.params.get("include"))
            return self.finish(result)
        path = Path(self.params["path"])
        if not path.is_absolute():
            path = Path(settings.REFRESH_FILES_DIR) / path
        self.progress(f"Reading {path.name}")
        try:
            if path.stat().st_size > settings.REFRESH_MAX_BODY_BYTES:
                raise ConfigurationError(
                    f"{path}: larger than REFRESH_MAX_BODY_BYTES ({settings.REFRESH_MAX_BODY_BYTES} bytes)"
                )
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigurationError(f"{path}: file not found") from None
        except UnicodeDecodeError as exc:
            raise ConfigurationError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        document = FetchedDocument(url=str(path), status=200, text=text)
        result = read_legacy(document, path.name, self.new_result(raw_payload=text), self.params.get("include"))
        return self.finish(result)
