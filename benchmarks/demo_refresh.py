"""The demo's refresh: a LiteLLM price-list source with refresh settings, the mapping of LiteLLM's keys
onto the demo endpoints, and a saved copy of LiteLLM's real price list (benchmarks/demo_payloads/), so
that after `make run` one command shows a refresh end to end without a network or a key:

    python manage.py refresh LiteLLM --from-file benchmarks/demo_payloads/litellm_model_prices_1.110.2_demo_hosts.json

Loaded by load_benchmark_data (idempotent). The settings leave scheduled refreshes off: the demo asks
no upstream by itself."""

from datetime import date
from pathlib import Path

from .refresh_models import RefreshConfig, UpstreamMapping

PAYLOADS = Path(__file__).resolve().parent / "demo_payloads"
LITELLM_PAYLOAD = PAYLOADS / "litellm_model_prices_1.110.2_demo_hosts.json"
# (publisher, title, url, kind)
SOURCE = (
    "LiteLLM", "model price list",
    "https://github.com/BerriAI/litellm/blob/main/model_prices_and_context_window.json", "price_list",
)
LICENCE_URL = "https://github.com/BerriAI/litellm/blob/main/LICENSE"  # the repository's MIT licence
HOSTS = ["baseten/*", "cerebras/*", "deepinfra/*", "fireworks_ai/*", "groq/*", "nebius/*", "novita/*",
         "sambanova/*", "together_ai/*", "zai/*"]
# LiteLLM key -> (provider slug, model slug, tier) of a demo endpoint. Keys the file does not carry
# (DeepInfra's GLM-5.3, CoreWeave's models…) are simply not there; the rest of the hosts' keys stay
# unmapped, which the demo shows too.
MAPPINGS = {
    "baseten/zai-org/GLM-5.3-Fast": ("baseten", "glm-5-3", "Fast"),
    "baseten/zai-org/GLM-5.3": ("baseten", "glm-5-3", ""),
    "together_ai/zai-org/GLM-5.3": ("together-ai", "glm-5-3", ""),
    "novita/zai-org/glm-5.3": ("novita-ai", "glm-5-3", ""),
    "zai/glm-5.3": ("z-ai", "glm-5-3", ""),
    "baseten/deepseek-ai/DeepSeek-V4.1-Flash-1017-Fast": ("baseten", "deepseek-v4-1-flash-1017", "Fast"),
    "baseten/deepseek-ai/DeepSeek-V4.1-Flash-1017": ("baseten", "deepseek-v4-1-flash-1017", ""),
    "together_ai/deepseek-ai/DeepSeek-V4.1-Flash-1017": ("together-ai", "deepseek-v4-1-flash-1017", ""),
    "fireworks_ai/accounts/fireworks/models/deepseek-v4p1-flash-1017": ("fireworks", "deepseek-v4-1-flash-1017", ""),
    "deepinfra/deepseek-ai/DeepSeek-V4.1-Flash-1017": ("deepinfra", "deepseek-v4-1-flash-1017", ""),
    "baseten/zai-org/GLM-5.3-Flash": ("baseten", "glm-5-3-flash", ""),
    "together_ai/zai-org/GLM-5.3-Flash": ("together-ai", "glm-5-3-flash", ""),
    "fireworks_ai/glm-5p3-flash": ("fireworks", "glm-5-3-flash", ""),
    "zai/glm-5.3-flash": ("z-ai", "glm-5-3-flash", ""),
    "nebius/zai-org/GLM-5.3-Flash": ("nebius", "glm-5-3-flash", ""),
    "cerebras/gpt-oss-120b": ("cerebras", "gpt-oss-120b", ""),
    "sambanova/gpt-oss-120b": ("sambanova", "gpt-oss-120b", ""),
    "groq/openai/gpt-oss-120b": ("groq", "gpt-oss-120b", ""),
    "novita/openai/gpt-oss-120b": ("novita-ai", "gpt-oss-120b", ""),
    "together_ai/openai/gpt-oss-120b": ("together-ai", "gpt-oss-120b", ""),
    "deepinfra/openai/gpt-oss-120b": ("deepinfra", "gpt-oss-120b", ""),
}


def load_demo_refresh(endpoints):
    """The source, its refresh settings and the mappings; `endpoints`: {(provider slug, model slug,
    tier): Endpoint}. Returns the source."""
    from .models import Source

    publisher, title, url, kind = SOURCE
    source, _created = Source.objects.get_or_create(
        url=url,
        defaults={
            "publisher": publisher, "title_en": title, "title_es": "lista de precios de modelos", "kind": kind,
            "accessed_on": date(2026, 11, 30), "licence": "MIT", "licence_url": LICENCE_URL,
            "auto_publish": True, "is_demo": True,
        },
    )
    if not source.licence_url:  # a database loaded before sources had one
        type(source).objects.filter(pk=source.pk).update(licence_url=LICENCE_URL)
        source.licence_url = LICENCE_URL
    RefreshConfig.objects.get_or_create(
        source=source,
        defaults={"adapter": "litellm", "params": {"include": HOSTS}, "enabled": False, "interval_minutes": 1440},
    )
    for key, target in MAPPINGS.items():
        endpoint = endpoints.get(target)
        if endpoint is not None:
            UpstreamMapping.objects.get_or_create(
                upstream="litellm", upstream_id=key, defaults={"upstream_name": key, "endpoint": endpoint}
            )
    return source
