"""A draft price list's prices are listed a page at a time in the snapshot editor, with a filter by
model and provider; the editor costs the same queries for 30 or 300 prices."""

import datetime
import re
from decimal import Decimal

import pytest
from bs4 import BeautifulSoup

from benchmarks.admin.prices import PRICE_ORDER, PRICE_PAGE_SIZE
from benchmarks.models import Price

from .data_admin_support import endpoint_grid
from .data_admin_support import snapshot_edit_url as edit_url
from .factories import EndpointFactory, LanguageModelFactory, ProviderFactory, SnapshotFactory, SourceFactory

SMALL, LARGE = 30, 300
QUERY_BOUND = 30  # measured: 20 for 30 prices and for 300 (a page of 100 shown)
DAYS = 15  # 20 endpoints × 15 days: 300 prices


@pytest.fixture
def endpoints(db):
    return endpoint_grid()


def draft_price_list(endpoints, count):
    """A draft snapshot of a price list holding `count` prices (bulk-created, as an import copies them)."""
    price_list = SourceFactory(kind="price_list", publisher="Hosts", title="pricing")
    snapshot = SnapshotFactory(source=price_list)
    start = datetime.date(2026, 1, 1)
    pairs = [(endpoint, day) for endpoint in endpoints for day in range(DAYS)][:count]
    Price.objects.bulk_create(
        Price(
            snapshot=snapshot,
            source=price_list,
            endpoint=endpoint,
            input_per_m=Decimal(n) / 4,
            output_per_m=Decimal(n),
            currency="USD",
            effective_date=start + datetime.timedelta(days=day),
        )
        for n, (endpoint, day) in enumerate(pairs, start=1)
    )
    return snapshot


def expected(snapshot, **filters):
    return list(snapshot.prices.filter(**filters).order_by(*PRICE_ORDER).values_list("pk", flat=True))


def listed(html):
    """The prices linked from the editor, in order (each links to its own form)."""
    section = html.split('class="snapshot-draft-prices"', 1)[1].split("</ul>", 1)[0]
    return [int(pk) for pk in re.findall(r"/admin/snippets/benchmarks/price/edit/(\d+)/", section)]


@pytest.mark.parametrize("count", [SMALL, LARGE])
def test_draft_price_list_costs_the_same_queries_whatever_its_size(
    editor_client, endpoints, count, django_assert_max_num_queries
):
    snapshot = draft_price_list(endpoints, count)
    editor_client.get(edit_url(snapshot))  # session, caches
    with django_assert_max_num_queries(QUERY_BOUND):
        page = editor_client.get(edit_url(snapshot))
    assert page.status_code == 200
    assert listed(page.text) == expected(snapshot)[:PRICE_PAGE_SIZE]


def price_filter(html):
    return html.split('class="snapshot-price-filter"', 1)[1].split("</form>", 1)[0]


def choices(html, name):
    select = BeautifulSoup(price_filter(html), "html.parser").find("select", attrs={"name": name})
    return {int(option["value"]) for option in select.find_all("option") if option["value"]}


def test_draft_price_list_pages_and_filter(editor_client, endpoints):
    snapshot = draft_price_list(endpoints, LARGE)
    unpriced = EndpointFactory(
        model=LanguageModelFactory(name="Gamma"), provider=ProviderFactory(name="Other")
    )
    rows = expected(snapshot)
    first = editor_client.get(edit_url(snapshot))
    assert listed(first.text) == rows[:PRICE_PAGE_SIZE]
    assert "Prices 1–100 of 300 (the draft has 300)." in first.text and "Page 1 of 3" in first.text
    assert "?price_page=2" in first.text

    second = editor_client.get(edit_url(snapshot, price_page=2))
    assert listed(second.text) == rows[PRICE_PAGE_SIZE : 2 * PRICE_PAGE_SIZE]
    assert "Prices 101–200 of 300" in second.text

    beta, host = endpoints[10].model, endpoints[13].provider
    narrowed = editor_client.get(edit_url(snapshot, price_model=beta.pk, price_provider=host.pk))
    wanted = expected(snapshot, endpoint__model=beta, endpoint__provider=host)
    assert len(wanted) == DAYS and listed(narrowed.text) == wanted
    assert "Prices 1–15 of 15 (the draft has 300)." in narrowed.text

    by_model = editor_client.get(edit_url(snapshot, price_model=beta.pk, price_page=2))
    assert listed(by_model.text) == expected(snapshot, endpoint__model=beta)[PRICE_PAGE_SIZE:]
    by_provider = editor_client.get(edit_url(snapshot, price_provider=host.pk))
    assert listed(by_provider.text) == expected(snapshot, endpoint__provider=host)  # both models

    # The filter offers the models and providers the draft has prices for.
    assert choices(first.text, "price_model") == {endpoints[0].model_id, beta.pk}
    assert choices(first.text, "price_provider") == {e.provider_id for e in endpoints}
    assert unpriced.model_id not in choices(first.text, "price_model")


def test_the_price_filter_keeps_the_measurement_page_and_filter(editor_client, endpoints):
    snapshot = draft_price_list(endpoints, SMALL)
    page = editor_client.get(
        edit_url(snapshot, p=2, metric="ttft_p95", price_provider=endpoints[0].provider_id)
    )
    form = price_filter(page.text)
    assert '<input type="hidden" name="p" value="2">' in form
    assert '<input type="hidden" name="metric" value="ttft_p95">' in form
    assert 'type="hidden" name="price_provider"' not in form
