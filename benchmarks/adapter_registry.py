"""The code that reads each upstream, found by the name a refresh setting stores (`RefreshConfig.adapter`).

Adapters live in ingestion (benchmarks/ingest/adapters) and register here by name when that package
is imported (benchmarks.apps imports it at start-up), so a refresh setting checks its parameters
without the data layer importing ingestion (tests/test_layers.py).
"""

from django.core.exceptions import ImproperlyConfigured

_adapters = {}


def register_adapter(adapter):
    """Register an adapter class under its `name` (one of refresh_models.Adapter); returns it."""
    _adapters[adapter.name] = adapter
    return adapter


def registered_adapters():
    return dict(_adapters)


def adapter_named(name):
    """The adapter class registered as `name`. A name with nothing registered is a start-up error
    (the ingest package was not imported), never a setting left unchecked."""
    try:
        return _adapters[name]
    except KeyError:
        raise ImproperlyConfigured(
            f"No adapter registered as {name!r}: benchmarks.ingest.adapters registers them (benchmarks.apps)."
        ) from None
