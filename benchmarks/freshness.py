"""How old a published figure may be before pages flag it as stale.

Each metric has a maximum age in the registry (FRESHNESS_MAX_AGE_HOURS in settings overrides
it per metric key, "price" for prices). A first-party run is a dated, one-off measurement that a
page shows with its date, so it never goes stale; third-party benchmarks and price lists do.
Demo sources (Source.is_demo) are example data labelled as such on every page and never go stale.
"""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from .metrics import PRICE_MAX_AGE, get_metric

EXEMPT_SOURCE_KINDS = {"first_party"}


def max_age(key):
    hours = getattr(settings, "FRESHNESS_MAX_AGE_HOURS", {}).get(key)
    if hours is not None:
        return timedelta(hours=hours)
    return PRICE_MAX_AGE if key == "price" else get_metric(key).max_age


def measurement_stale_after(measurement):
    """The moment after which the figure is stale, or None if it never goes stale."""
    snapshot = measurement.snapshot
    # Demo data is a fixed example (pages label it as such): it must read the same a week later.
    if snapshot.source.kind in EXEMPT_SOURCE_KINDS or snapshot.source.is_demo:
        return None
    return snapshot.measured_at + max_age(measurement.metric)


def measurement_is_stale(measurement, now=None):
    after = measurement_stale_after(measurement)
    return after is not None and (now or timezone.now()) > after


def price_seen_at(price):
    """When the price was last confirmed: its import or refresh, else when it was recorded."""
    if price.snapshot_id and price.snapshot is not None:
        return max(price.snapshot.fetched_at, price.created_at)
    return price.created_at


def price_stale_after(price):
    if price.source.is_demo:
        return None
    return price_seen_at(price) + max_age("price")


def price_is_stale(price, now=None):
    after = price_stale_after(price)
    return after is not None and (now or timezone.now()) > after
