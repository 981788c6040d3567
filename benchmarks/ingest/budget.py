"""An upstream's request budget belongs to the API key, not to one source: every source whose adapter
sends the same key (e.g. the free list and the per-provider data of Artificial Analysis) reads and
records one budget, so two sources cannot each believe they have the whole day's requests."""

from ..refresh_models import RefreshConfig
from .adapters import ADAPTERS
from .adapters.http_client import RateLimit


def sharing_configs(config):
    """The refresh settings that spend the same key's budget as `config` (itself included)."""
    key = getattr(ADAPTERS.get(config.adapter), "budget_key", "")
    if not key:
        return RefreshConfig.objects.filter(pk=config.pk)
    adapters = [name for name, adapter in ADAPTERS.items() if adapter.budget_key == key]
    return RefreshConfig.objects.filter(adapter__in=adapters)


def newest_budget(config):
    """The latest budget any source on this key saw (None: none is known, or its window is over)."""
    budgets = [RateLimit.from_json(data) for data in sharing_configs(config).values_list("rate_limit", flat=True)]
    budgets = [budget for budget in budgets if budget is not None]
    return max(budgets, key=lambda budget: budget.seen_at, default=None)


def record_budget(config, budget, next_attempt):
    """Every source on this key learns the budget, and waits for the reset when it is spent."""
    sharing_configs(config).update(rate_limit=budget.as_json(), next_attempt_after=next_attempt)
