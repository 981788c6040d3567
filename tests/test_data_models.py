"""Constraints, validation and the immutability of published snapshots."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from benchmarks.models import Endpoint, ImmutableSnapshotError, Measurement, Price, Snapshot

from .factories import EndpointFactory, MeasurementFactory, PriceFactory, SnapshotFactory, SourceFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """Messages are compared in English, whatever language an earlier test left active."""
    with translation.override("en"):
        yield


@pytest.fixture
def endpoint():
    return EndpointFactory()


@pytest.fixture
def published(endpoint):
    return SnapshotFactory(
        values=[(endpoint, "output_speed_median", "150.4"), (endpoint, "ttfc_median", "2.6")], published=True
    )


# --- database constraints ------------------------------------------------------------------------


def test_database_enforces_one_value_per_snapshot_endpoint_metric(endpoint):
    snapshot = SnapshotFactory()
    Measurement.objects.create(
        snapshot=snapshot, endpoint=endpoint, metric="ttft_median", value=Decimal("0.5")
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Measurement.objects.create(
            snapshot=snapshot, endpoint=endpoint, metric="ttft_median", value=Decimal("0.6")
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Measurement.objects.bulk_create(
            [Measurement(snapshot=snapshot, endpoint=endpoint, metric="ttft_median", value=1)]
        )
    # Another metric, another snapshot or another endpoint is a different value.
    Measurement.objects.create(snapshot=snapshot, endpoint=endpoint, metric="ttft_p95", value=Decimal("0.9"))
    Measurement.objects.create(
        snapshot=SnapshotFactory(), endpoint=endpoint, metric="ttft_median", value=Decimal("0.7")
    )
    Measurement.objects.create(
        snapshot=snapshot, endpoint=EndpointFactory(), metric="ttft_median", value=Decimal("0.4")
    )
    assert Measurement.objects.count() == 4


def test_duplicate_measurement_is_reported_by_validation_too(endpoint):
    existing = MeasurementFactory(endpoint=endpoint, metric="ttft_median", value=Decimal("0.5"))
    duplicate = Measurement(
        snapshot=existing.snapshot, endpoint=endpoint, metric="ttft_median", value=Decimal("0.6")
    )
    with pytest.raises(ValidationError) as info:
        duplicate.full_clean()
    assert info.value.messages == ["Measurement with this Snapshot, Endpoint and Metric already exists."]


def test_database_enforces_one_endpoint_per_provider_model_tier(endpoint):
    EndpointFactory(provider=endpoint.provider, model=endpoint.model, tier="Fast")
    with pytest.raises(IntegrityError), transaction.atomic():
        Endpoint.objects.create(provider=endpoint.provider, model=endpoint.model, tier="")


def test_database_enforces_one_price_per_endpoint_day_source_and_no_negative_price(endpoint):
    price = PriceFactory(endpoint=endpoint)
    with pytest.raises(IntegrityError), transaction.atomic():
        Price.objects.bulk_create(
            [
                Price(
                    endpoint=endpoint,
                    source=price.source,
                    effective_date=price.effective_date,
                    input_per_m=1,
                    output_per_m=2,
                    currency="USD",
                )
            ]
        )
    # Even a bulk update that skips model validation cannot store a negative price.
    with pytest.raises(IntegrityError), transaction.atomic():
        Price.objects.filter(pk=price.pk).update(output_per_m=Decimal("-1"))


# --- validation messages name the field -----------------------------------------------------------


@pytest.mark.parametrize(
    ("metric", "value", "message"),
    [
        ("output_speed_median", "-0.1", "Output speed cannot be negative (got -0.1)."),
        ("tps_p95", "-3", "Tokens per second p95 floor cannot be negative (got -3)."),
        ("e2e_p99", "-1", "End-to-end p99 cannot be negative (got -1)."),
        ("task_success", "100.1", "Task success is a percentage and must be between 0 and 100 (got 100.1)."),
        ("failure_rate", "-0.5", "Failure rate is a percentage and must be between 0 and 100 (got -0.5)."),
    ],
)
def test_impossible_values_are_rejected_on_the_value_field(endpoint, metric, value, message):
    measurement = Measurement(
        snapshot=SnapshotFactory(), endpoint=endpoint, metric=metric, value=Decimal(value)
    )
    with pytest.raises(ValidationError) as info:
        measurement.full_clean()
    assert info.value.message_dict == {"value": [message]}
    with pytest.raises(ValidationError):
        measurement.save()
    assert not Measurement.objects.exists()


def test_boundary_values_are_accepted(endpoint):
    snapshot = SnapshotFactory()
    for metric, value in [
        ("accuracy_index", "0"),
        ("task_success", "100"),
        ("ttft_median", "0"),
        ("failure_rate", "0"),
    ]:
        measurement = Measurement(snapshot=snapshot, endpoint=endpoint, metric=metric, value=Decimal(value))
        measurement.full_clean()
        measurement.save()
    assert snapshot.measurements.count() == 4


def test_unknown_metric_is_rejected_on_the_metric_field(endpoint):
    measurement = Measurement(snapshot=SnapshotFactory(), endpoint=endpoint, metric="speed", value=1)
    with pytest.raises(ValidationError) as info:
        measurement.full_clean()
    assert "metric" in info.value.message_dict and "value" not in info.value.message_dict


def test_price_without_currency_names_the_field(endpoint):
    price = Price(
        endpoint=endpoint,
        source=SourceFactory(),
        input_per_m=1,
        output_per_m=2,
        currency=" ",
        effective_date=timezone.localdate(),
    )
    with pytest.raises(ValidationError) as info:
        price.full_clean()
    assert info.value.message_dict == {"currency": ["A price needs a currency (e.g. USD)."]}
    with pytest.raises(ValidationError):
        price.save()
    assert not Price.objects.exists()


def test_other_price_rules_name_their_fields(endpoint):
    price = Price(
        endpoint=endpoint,
        source=SourceFactory(),
        input_per_m=Decimal("-1"),
        output_per_m=2,
        currency="U$D",
        promo_input_per_m=Decimal("0.5"),
        effective_date=timezone.localdate(),
    )
    with pytest.raises(ValidationError) as info:
        price.full_clean()
    assert info.value.message_dict == {
        "currency": ["Use a three-letter ISO 4217 currency code such as USD."],
        "input_per_m": ["A price cannot be negative."],
        "promo_until": ["Say until when the promotional price runs."],
    }


def test_window_that_ends_before_it_starts_names_window_end():
    start = timezone.now()
    snapshot = SnapshotFactory.build(
        source=SourceFactory(), window_start=start, window_end=start - datetime.timedelta(hours=1)
    )
    with pytest.raises(ValidationError) as info:
        snapshot.full_clean()
    assert info.value.message_dict == {"window_end": ["The measurement window ends before it starts."]}


# --- immutability -------------------------------------------------------------------------------


def test_draft_can_change_freely(endpoint):
    draft = SnapshotFactory(values=[(endpoint, "ttfc_median", "1.0")])
    draft.workload = "1,000-token input"
    draft.save()
    measurement = draft.measurements.get()
    measurement.value = Decimal("1.1")
    measurement.save()
    measurement.delete()
    draft.delete()
    assert not Snapshot.objects.exists()


def test_published_snapshot_cannot_change(published, endpoint):
    snapshot = Snapshot.objects.get(pk=published.pk)
    snapshot.workload = "something else"
    with pytest.raises(ValidationError) as info:
        snapshot.full_clean()
    assert "cannot be changed" in str(info.value)
    with pytest.raises(ImmutableSnapshotError):
        snapshot.save()
    with pytest.raises(ImmutableSnapshotError):
        Snapshot.objects.get(pk=published.pk).delete()
    snapshot = Snapshot.objects.get(pk=published.pk)
    snapshot.status = Snapshot.Status.DRAFT
    snapshot.measured_at -= datetime.timedelta(days=1)
    with pytest.raises(ImmutableSnapshotError):
        snapshot.save()
    published.refresh_from_db()
    assert (published.workload, published.status) == ("10,000-token input", Snapshot.Status.PUBLISHED)


def test_measurements_of_a_published_snapshot_cannot_change(published, endpoint):
    measurement = published.measurements.get(metric="output_speed_median")
    measurement.value = Decimal("1")
    with pytest.raises(ImmutableSnapshotError):
        measurement.save()
    with pytest.raises(ValidationError) as info:
        measurement.full_clean()
    assert "snapshot" in info.value.message_dict
    with pytest.raises(ImmutableSnapshotError):
        measurement.delete()
    with pytest.raises(ImmutableSnapshotError):
        Measurement.objects.create(
            snapshot=published, endpoint=EndpointFactory(), metric="ttfc_median", value=1
        )
    assert sorted(published.measurements.values_list("value", flat=True)) == [
        Decimal("2.6"),
        Decimal("150.4"),
    ]


def test_only_a_draft_can_be_published(published):
    with pytest.raises(ValidationError):
        published.publish()


# --- supersession keeps history --------------------------------------------------------------------


def test_correction_supersedes_and_keeps_history(published, endpoint):
    correction = SnapshotFactory(
        source=published.source,
        measured_at=published.measured_at,
        values=[(endpoint, "output_speed_median", "105.4"), (endpoint, "ttfc_median", "2.6")],
    )
    published.publish_correction(correction, "Speed was copied from the wrong provider.")

    published.refresh_from_db()
    correction.refresh_from_db()
    assert published.status == Snapshot.Status.SUPERSEDED
    assert (correction.status, correction.supersedes, published.superseded_by) == (
        Snapshot.Status.PUBLISHED,
        published,
        correction,
    )
    assert correction.correction_note == "Speed was copied from the wrong provider."
    # History: the superseded snapshot and its values are all still there, unchanged.
    assert published.measurements.get(metric="output_speed_median").value == Decimal("150.4")
    assert Snapshot.objects.count() == 2 and Measurement.objects.count() == 4
    # The site shows the corrected value; what readers saw before the correction stays on record.
    latest = Measurement.objects.latest(metrics=["output_speed_median"]).get()
    assert latest.value == Decimal("105.4")
    before = correction.published_at - datetime.timedelta(microseconds=1)
    assert Measurement.objects.latest(as_of=before, metrics=["output_speed_median"]).get().value == Decimal("150.4")
    at = Measurement.objects.latest(as_of=correction.published_at, metrics=["output_speed_median"]).get()
    assert at.value == Decimal("105.4")

    superseded = Snapshot.objects.get(pk=published.pk)
    superseded.status = Snapshot.Status.PUBLISHED
    with pytest.raises(ImmutableSnapshotError):
        superseded.save()
    with pytest.raises(ValidationError):
        published.publish_correction(SnapshotFactory(source=published.source), "again")
    with pytest.raises(ImmutableSnapshotError):
        Snapshot.objects.get(pk=published.pk).delete()


def test_correction_needs_a_note(published):
    correction = SnapshotFactory(source=published.source)
    with pytest.raises(ValidationError) as info:
        published.publish_correction(correction, "  ")
    assert "correction_note" in info.value.message_dict
    published.refresh_from_db()
    correction.refresh_from_db()
    assert (published.status, correction.status) == (Snapshot.Status.PUBLISHED, Snapshot.Status.DRAFT)


def test_only_a_published_snapshot_can_be_corrected():
    draft = SnapshotFactory()
    with pytest.raises(ValidationError):
        draft.publish_correction(SnapshotFactory(source=draft.source), "note")
