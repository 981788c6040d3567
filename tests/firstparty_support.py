"""Shared set-up for the first-party tests: an endpoint, a first-party source, a probe configuration."""

import json

from benchmarks.models import Endpoint, LanguageModel, Provider, Source
from firstparty.models import ProbeConfig

KEY_ENV = "FAKE_PROVIDER_API_KEY"
KEY_VALUE = "sk-test-0123456789-do-not-leak"


def make_endpoint(slug="acme", model_slug="glm-5-3-flash", tier=""):
    provider, _ = Provider.objects.get_or_create(slug=slug, defaults={"name": slug.title()})
    model, _ = LanguageModel.objects.get_or_create(slug=model_slug, defaults={"name": model_slug.upper()})
    endpoint, _ = Endpoint.objects.get_or_create(provider=provider, model=model, tier=tier,
                                                 defaults={"api_model_id": f"{slug}/{model_slug}"})
    return endpoint


def first_party_source(title="Probe series"):
    return Source.objects.create(title=title, publisher="us", url=f"https://example.org/{title.replace(' ', '-')}",
                                 kind="first_party", auto_publish=True)


def make_config(base_url, endpoint=None, series=None, **extra):
    return ProbeConfig.objects.create(
        endpoint=endpoint or make_endpoint(), base_url=base_url, api_key_env=KEY_ENV, series=series, **extra
    )


def records_jsonl(count, provider="acme", model="glm-5-3-flash", bad_rows=()):
    """A runner's JSONL file of `count` good records (one a second from 2026-09-03 09:00 UTC); the row numbers
    in `bad_rows` get an outcome no runner writes."""
    from datetime import UTC, datetime, timedelta

    start = datetime(2026, 9, 3, 9, tzinfo=UTC)
    lines = []
    for n in range(1, count + 1):
        row = {"provider": provider, "model": model, "started_at": (start + timedelta(seconds=n)).isoformat(),
               "outcome": "maybe" if n in bad_rows else "success", "ttft_s": 0.4 + (n % 7) / 10,
               "e2e_s": 2.5 + (n % 11) / 10, "output_tokens": 100 + n % 50, "token_count": "usage", "region": "eu"}
        lines.append(json.dumps(row))
    return "\n".join(lines) + "\n"
