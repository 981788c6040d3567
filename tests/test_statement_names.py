"""A statement chip names its providers and models from one cached lookup (articles/statements/describe.py).
When the cache is behind (a provider added after it was filled, or a cache left by another database),
the names are read again once, not twice for every statement that follows."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from articles.statements import describe
from articles.statements.conditions import Claim, Condition, Host
from articles.statements.describe import describe_claim
from tests.factories import EndpointFactory, ProviderFactory

pytestmark = pytest.mark.django_db


def leads(endpoint):
    return Claim((Condition(kind="leads", metric="output_speed_median", models=(endpoint.model_id,),
                            host=Host(endpoint.provider_id, endpoint.tier)),))


def test_names_added_after_the_cache_was_filled_are_read_once_per_request():
    cache.clear()
    first = EndpointFactory()
    describe_claim(leads(first))  # fills the cache
    later = [EndpointFactory(provider=ProviderFactory(name=f"Newer host {n}")) for n in range(5)]

    # Inside one request, as the edit view describes every statement of a page (the receivers of
    # Django's request signals, called directly: the signals would also close the test's connection).
    describe._request_started()
    try:
        with CaptureQueriesContext(connection) as ctx:
            texts = [describe_claim(leads(endpoint)) for endpoint in later]
    finally:
        describe._request_finished()
    assert [text.split(" leads ")[0] for text in texts] == [f"Newer host {n}" for n in range(5)]
    assert len(ctx.captured_queries) <= 2, [q["sql"][:80] for q in ctx.captured_queries]
