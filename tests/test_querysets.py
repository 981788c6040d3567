"""The query methods blocks rely on: right answers, in a number of queries that does not grow with the data."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from benchmarks.models import Measurement, Price, Snapshot
from benchmarks.querysets import rank_rows

from .factories import (
    EndpointFactory,
    LanguageModelFactory,
    PriceFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)

SIZES = [3, 30]
NOW = timezone.now()


def days_ago(days):
    return NOW - datetime.timedelta(days=days)


def build(size):
    """`size` providers serving one model, measured by two sources over time.

    Source A: an old and a new published snapshot, a newer draft (ignored) and a superseded
    snapshot (ignored). Source B: one published snapshot between A's two. Endpoint i of A's
    new snapshot runs at 100 + i tokens/s with a first chunk after 3 - i/100 s, so the last
    endpoint leads both. Provider 0 also serves a second model, in a Fast tier, at 500 tokens/s.
    """
    model, other_model = LanguageModelFactory(), LanguageModelFactory()
    providers = [ProviderFactory() for _ in range(size)]
    endpoints = [EndpointFactory(provider=p, model=model) for p in providers]
    fast_other = EndpointFactory(provider=providers[0], model=other_model, tier="Fast")
    a, b = SourceFactory(), SourceFactory()

    def values(speed, first_chunk=None):
        rows = [(e, "output_speed_median", speed(i)) for i, e in enumerate(endpoints)]
        if first_chunk:
            rows += [(e, "ttfc_median", first_chunk(i)) for i, e in enumerate(endpoints)]
        return rows

    old = SnapshotFactory(source=a, measured_at=days_ago(5), values=values(lambda i: 50 + i), published=True)
    wrong = SnapshotFactory(
        source=a, measured_at=days_ago(2), values=values(lambda i: 900 + i), published=True
    )
    fix = SnapshotFactory(source=a, measured_at=days_ago(2), values=values(lambda i: 80 + i))
    wrong.publish_correction(fix, "Wrong column.")
    new = SnapshotFactory(
        source=a,
        measured_at=days_ago(1),
        values=values(lambda i: 100 + i, lambda i: Decimal(3) - Decimal(i) / 100)
        + [(fast_other, "output_speed_median", 500)],
        published=True,
    )
    SnapshotFactory(source=a, measured_at=days_ago(0), values=values(lambda i: 999))  # draft
    on_b = SnapshotFactory(source=b, measured_at=days_ago(3), values=values(lambda i: 10 + i), published=True)
    return {
        "model": model,
        "other_model": other_model,
        "providers": providers,
        "endpoints": endpoints,
        "fast_other": fast_other,
        "a": a,
        "b": b,
        "old": old,
        "wrong": wrong,
        "fix": fix,
        "new": new,
        "on_b": on_b,
    }


def touch(rows):
    """Use what a block would render, so a lazy relation shows up as an extra query."""
    return [
        (r.endpoint.provider.name, r.endpoint.model.name, r.endpoint.tier, r.snapshot.source.title, r.value)
        for r in rows
    ]


@pytest.fixture(params=SIZES, ids=lambda n: f"{n}-endpoints")
def data(request, db):
    return build(request.param)


# --- Measurement.objects.latest -------------------------------------------------------------------


def test_latest_is_newest_published_value_per_endpoint_metric_and_source(data, django_assert_num_queries):
    with django_assert_num_queries(1):
        rows = touch(Measurement.objects.latest(models=[data["model"]], metrics=["output_speed_median"]))
    size = len(data["endpoints"])
    # Per source: A's newest published snapshot and B's only one; never the draft, never the superseded one.
    assert sorted(r[4] for r in rows if r[3] == data["a"].title) == [Decimal(100 + i) for i in range(size)]
    assert sorted(r[4] for r in rows if r[3] == data["b"].title) == [Decimal(10 + i) for i in range(size)]
    assert len(rows) == 2 * size


def test_latest_across_sources_takes_the_newest_measurement(data, django_assert_num_queries):
    with django_assert_num_queries(1):
        rows = list(Measurement.objects.latest(metrics=["output_speed_median"], per_source=False))
    assert {r.snapshot_id for r in rows} == {data["new"].pk}
    assert len(rows) == len(data["endpoints"]) + 1


def test_latest_as_of_a_date(data, django_assert_num_queries):
    with django_assert_num_queries(1):
        rows = touch(Measurement.objects.latest(as_of=days_ago(4), metrics=["output_speed_median"]))
    assert sorted(r[4] for r in rows) == [Decimal(50 + i) for i in range(len(data["endpoints"]))]
    # 1.5 days ago readers saw the wrong snapshot: its correction was only published now.
    with django_assert_num_queries(1):
        rows = list(
            Measurement.objects.latest(
                as_of=days_ago(1.5), sources=[data["a"]], metrics=["output_speed_median"]
            )
        )
    assert {r.snapshot_id for r in rows} == {data["wrong"].pk}
    # Once the correction is published, the same moment's data reads the correction's values.
    after_fix = Snapshot.objects.get(pk=data["fix"].pk).published_at
    rows = Measurement.objects.latest(as_of=after_fix, sources=[data["a"]], metrics=["output_speed_median"])
    assert {r.snapshot_id for r in rows} == {data["new"].pk}
    assert {r.snapshot_id for r in Measurement.objects.in_force(after_fix).filter(snapshot__source=data["a"])} == {
        data["old"].pk, data["fix"].pk, data["new"].pk
    }
    with django_assert_num_queries(1):
        assert list(Measurement.objects.latest(as_of=days_ago(6))) == []


def test_latest_for_one_source_and_some_endpoints(data, django_assert_num_queries):
    chosen = data["endpoints"][:2]
    with django_assert_num_queries(1):
        rows = list(Measurement.objects.latest(sources=[data["b"]], endpoints=chosen))
    assert sorted((r.endpoint_id, r.value) for r in rows) == [
        (e.pk, Decimal(10 + i)) for i, e in enumerate(chosen)
    ]


# --- ranking: the one path pages use (PageData.ranked -> rank_rows) -------------------------------


class Needs:
    """A stand-in block that needs some models, so a PageData loads them like a page would."""

    def __init__(self, *models):
        self.models = models

    def data_requirements(self, value):
        for model in self.models:
            yield model, None


def page_data(*models, as_of=None):
    from articles.blocks.base import BoundChild
    from articles.data import PageData

    return PageData(blocks=[BoundChild(Needs(*models), None)], as_of=as_of)


def test_ranked_best_first_for_higher_and_lower_is_better(data, django_assert_num_queries):
    endpoints = data["endpoints"]
    # One query for the rows and one for the prices, then one each for their snapshots and endpoints,
    # shared by every row and price (articles/data.py with_shared_related); the count is the same with
    # 3 and with 30 endpoints.
    with django_assert_num_queries(4):
        loaded = page_data(data["model"])
        speed = [(r.endpoint.label, r.value) for r in loaded.ranked(data["model"], "output_speed_median", data["a"])]
        first_chunk = loaded.ranked(data["model"], "ttfc_median")
    assert [value for _label, value in speed] == [Decimal(100 + i) for i in reversed(range(len(endpoints)))]
    assert [r.endpoint_id for r in first_chunk] == [e.pk for e in reversed(endpoints)]
    assert first_chunk[0].value < first_chunk[-1].value


def test_ranked_ties_keep_the_source_order(db):
    model = LanguageModelFactory()
    endpoints = [EndpointFactory(model=model) for _ in range(3)]
    SnapshotFactory(values=[(e, "output_speed_median", 200) for e in endpoints], published=True)
    assert [r.endpoint for r in page_data(model).ranked(model, "output_speed_median")] == endpoints


def test_ranked_without_a_source_uses_each_endpoints_newest_value(data):
    ranked = page_data(data["model"]).ranked(data["model"], "output_speed_median")
    assert {r.snapshot_id for r in ranked} == {data["new"].pk}
    assert len(ranked) == len(data["endpoints"])


def test_ranked_as_of_a_moment(data):
    ranked = page_data(data["model"], as_of=days_ago(0.5)).ranked(data["model"], "ttfc_median")
    assert ranked[0].value == Decimal(3) - Decimal(len(data["endpoints"]) - 1) / 100
    assert page_data(data["model"], as_of=days_ago(10)).ranked(data["model"], "output_speed_median") == []


def test_rank_rows_uses_the_metric_direction():
    from benchmarks.metrics import get_metric

    class Row:
        def __init__(self, pk, value):
            self.pk, self.value = pk, Decimal(value)

    rows = [Row(1, "2.0"), Row(2, "1.0"), Row(3, "2.0")]
    assert [r.pk for r in rank_rows(rows, get_metric("ttft_median"))] == [2, 1, 3]
    assert [r.pk for r in rank_rows(rows, get_metric("output_speed_median"))] == [1, 3, 2]


# --- Price.objects.current --------------------------------------------------------------------------


@pytest.fixture(params=SIZES, ids=lambda n: f"{n}-endpoints")
def prices(request, db):
    today = timezone.localdate()
    model, other = LanguageModelFactory(), LanguageModelFactory()
    endpoints = [EndpointFactory(model=model) for _ in range(request.param)]
    other_endpoint = EndpointFactory(model=other)
    price_list = SourceFactory(kind="price_list")
    draft = SnapshotFactory(source=price_list)
    for i, endpoint in enumerate(endpoints):
        PriceFactory(
            endpoint=endpoint,
            source=price_list,
            effective_date=today - datetime.timedelta(days=30),
            input_per_m=2,
        )
        PriceFactory(
            endpoint=endpoint,
            source=price_list,
            effective_date=today - datetime.timedelta(days=2),
            input_per_m=Decimal(1) + Decimal(i) / 100,
        )
        PriceFactory(
            endpoint=endpoint,
            source=price_list,
            effective_date=today + datetime.timedelta(days=5),
            input_per_m=9,
        )
        # Recorded by an import that is still a draft: not in force.
        PriceFactory(
            endpoint=endpoint,
            source=price_list,
            effective_date=today - datetime.timedelta(days=1),
            input_per_m=7,
            snapshot=draft,
        )
    PriceFactory(
        endpoint=other_endpoint, source=price_list, effective_date=today - datetime.timedelta(days=2)
    )
    return {"today": today, "model": model, "endpoints": endpoints, "other": other_endpoint}


def test_current_price_per_endpoint(prices, django_assert_num_queries):
    endpoints = prices["endpoints"]
    with django_assert_num_queries(1):
        rows = [
            (p.endpoint_id, p.input_per_m, p.source.title, p.endpoint.provider.name, p.endpoint.model.name)
            for p in Price.objects.current(models=[prices["model"]])
        ]
    assert sorted((r[0], r[1]) for r in rows) == [
        (e.pk, Decimal(1) + Decimal(i) / 100) for i, e in enumerate(endpoints)
    ]


def test_current_price_on_a_past_date_and_for_some_endpoints(prices, django_assert_num_queries):
    with django_assert_num_queries(1):
        past = list(Price.objects.current(on_date=prices["today"] - datetime.timedelta(days=10)))
    assert {p.input_per_m for p in past} == {Decimal(2)} and len(past) == len(prices["endpoints"])
    with django_assert_num_queries(1):
        some = list(Price.objects.current(endpoints=[prices["other"], prices["endpoints"][0]]))
    assert {p.endpoint_id for p in some} == {prices["other"].pk, prices["endpoints"][0].pk}
    with django_assert_num_queries(1):
        future = {
            p.input_per_m for p in Price.objects.current(on_date=prices["today"] + datetime.timedelta(days=6))
        }
    assert future == {Decimal(9), Decimal("1.40")}


def test_published_price_snapshot_puts_its_prices_in_force(prices):
    draft = Snapshot.objects.get(status="draft")
    draft.publish()
    assert {p.input_per_m for p in Price.objects.current(models=[prices["model"]])} == {Decimal(7)}


def test_a_draft_correction_hides_nothing_at_any_moment(db):
    model = LanguageModelFactory()
    endpoint = EndpointFactory(model=model)
    original = SnapshotFactory(measured_at=days_ago(2), values=[(endpoint, "output_speed_median", 100)], published=True)
    draft = SnapshotFactory(source=original.source, measured_at=days_ago(2), values=[(endpoint, "output_speed_median", 90)])
    Snapshot.objects.filter(pk=draft.pk).update(supersedes=original)  # a correction still being prepared

    for moment in (days_ago(1), timezone.now()):
        rows = Measurement.objects.latest(as_of=moment, models=[model])
        assert [r.snapshot_id for r in rows] == [original.pk]
