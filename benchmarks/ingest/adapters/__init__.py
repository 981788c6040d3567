"""Upstream adapters: each turns one upstream's response into rows of figures and prices in our units."""

from benchmarks.adapter_registry import register_adapter

from .artificial_analysis import ArtificialAnalysisAdapter, ArtificialAnalysisLegacyFileAdapter
from .base import FetchResult, UpstreamRow
from .errors import (
    ConfigurationError,
    DeadlineExceeded,
    ImpossibleValue,
    MalformedPayload,
    PayloadTooLarge,
    RateLimitBudgetSpent,
    RefreshError,
    SchemaChanged,
    UpstreamUnavailable,
)
from .http_client import Deadline, RateLimit, UpstreamClient
from .litellm import LiteLLMAdapter
from .openrouter import OpenRouterAdapter

ADAPTERS = {
    adapter.name: register_adapter(adapter)  # found by name from the refresh settings (adapter_registry.py)
    for adapter in (
        ArtificialAnalysisAdapter,
        ArtificialAnalysisLegacyFileAdapter,
        OpenRouterAdapter,
        LiteLLMAdapter,
    )
}


def get_adapter_class(name):
    try:
        return ADAPTERS[name]
    except KeyError:
        raise ConfigurationError(f"unknown adapter {name!r}; known: {', '.join(ADAPTERS)}") from None


__all__ = [
    "ADAPTERS",
    "ConfigurationError",
    "Deadline",
    "DeadlineExceeded",
    "FetchResult",
    "ImpossibleValue",
    "MalformedPayload",
    "PayloadTooLarge",
    "RateLimit",
    "RateLimitBudgetSpent",
    "RefreshError",
    "SchemaChanged",
    "UpstreamClient",
    "UpstreamRow",
    "UpstreamUnavailable",
    "get_adapter_class",
]
