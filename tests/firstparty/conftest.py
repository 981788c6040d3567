"""Fixtures of the first-party tests: a fake provider, the API key variable, a series."""

import pytest

from firstparty.models import Series
from tests.firstparty_support import KEY_ENV, KEY_VALUE, first_party_source


@pytest.fixture
def fake_provider():
    from tests.fake_openai import FakeProvider

    with FakeProvider() as provider:
        yield provider


@pytest.fixture
def api_key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY_VALUE)
    return KEY_VALUE


@pytest.fixture
def series(db):
    return Series.objects.create(name="test series", source=first_party_source())
