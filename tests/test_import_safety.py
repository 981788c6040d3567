"""Imports follow the refresh's rules: implausible values and big jumps are held for review, a different
file for a moment already published is a correction, the same payload is never imported twice."""

import datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone, translation

from benchmarks.ingest.importers import import_prices, import_snapshot
from benchmarks.models import Measurement, Price, Snapshot, Source

from .factories import EndpointFactory, LanguageModelFactory, ProviderFactory, SourceFactory
from .upload_support import post_upload

MEASURED_AT = "2026-11-28T14:00:00Z"
HEADER = "provider,model,tier,metric,value"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def world(db):
    model = LanguageModelFactory(slug="glm-5-3", name="GLM-5.3")
    endpoints = {
        slug: EndpointFactory(provider=ProviderFactory(slug=slug, name=slug.title()), model=model)
        for slug in ("together", "fireworks")
    }
    return {
        "endpoints": endpoints,
        "source": SourceFactory(url="https://artificialanalysis.ai/models/glm-5-3/providers"),
        "price_list": SourceFactory(url="https://example.org/prices", kind=Source.Kind.PRICE_LIST),
    }


def csv(*rows, header=HEADER):
    return ("\n".join([header, *rows]) + "\n").encode()


def published_values():
    return sorted((m.endpoint.provider.slug, m.metric, m.value) for m in Measurement.objects.latest())


def publish_baseline(world):
    result = import_snapshot(
        csv("together,glm-5-3,,output_speed_median,160", "fireworks,glm-5-3,,output_speed_median,210"),
        source=world["source"].pk, measured_at="2026-11-27T14:00:00Z", publish=True,
    )
    assert result.snapshot.status == Snapshot.Status.PUBLISHED
    return result.snapshot


# --- held for review ------------------------------------------------------------------------------
def test_an_absurd_value_is_imported_as_a_draft_held_for_review_even_when_publishing(world):
    result = import_snapshot(
        csv("together,glm-5-3,,output_speed_median,1000000000", "together,glm-5-3,,ttft_median,900"),
        source=world["source"].pk, measured_at=MEASURED_AT, publish=True,
    )

    assert result.created and result.held
    snapshot = result.snapshot
    assert snapshot.status == Snapshot.Status.DRAFT
    assert "Output speed of 1,000,000,000 tokens/s is above the plausible maximum of 5,000 tokens/s" in (
        snapshot.review_notes
    )
    assert "Time to first token median of 900 s is above the plausible maximum of 600 s" in snapshot.review_notes
    assert "Held for review, not published" in result.summary and "5,000 tokens/s" in result.summary
    assert published_values() == []


def test_a_jump_against_the_sources_published_value_is_held(world):
    publish_baseline(world)
    before = published_values()

    result = import_snapshot(
        csv("together,glm-5-3,,output_speed_median,900", "fireworks,glm-5-3,,output_speed_median,200"),
        source=world["source"].pk, measured_at=MEASURED_AT, publish=True,
    )

    assert result.held and result.snapshot.status == Snapshot.Status.DRAFT
    assert "Output speed would change from 160 to 900 tokens/s, more than 5×" in result.snapshot.review_notes
    assert "fireworks" not in result.snapshot.review_notes.lower()  # 210 -> 200 is ordinary
    assert published_values() == before


def test_absurd_and_jumping_prices_are_held_and_not_used(world):
    first = import_prices(
        csv("together,glm-5-3,,1.40,4.40,USD", header="provider,model,tier,input_per_m,output_per_m,currency"),
        source=world["price_list"].pk, effective_date="2026-11-20",
    )
    assert first.snapshot.status == Snapshot.Status.PUBLISHED and not first.held

    result = import_prices(
        csv(
            "together,glm-5-3,,14.00,4.40,USD",
            "fireworks,glm-5-3,,1.00,2500,USD",
            header="provider,model,tier,input_per_m,output_per_m,currency",
        ),
        source=world["price_list"].pk, effective_date="2026-11-28",
    )

    assert result.held and result.snapshot.status == Snapshot.Status.DRAFT
    notes = result.snapshot.review_notes
    assert "the input price would change from 1.4 to 14 USD per 1M tokens, more than the 5×" in notes
    assert "The output price of 2,500 USD per 1M tokens is above the plausible maximum of 1,000." in notes
    current = {p.endpoint_id: p for p in Price.objects.current(on_date=datetime.date(2026, 11, 29))}
    assert current[world["endpoints"]["together"].pk].input_per_m == Decimal("1.4")
    assert world["endpoints"]["fireworks"].pk not in current


def test_an_admin_upload_says_it_was_held_and_why(world, editor_client):
    response = post_upload(
        editor_client,
        reverse("benchmarks_import_snapshot:upload"),
        {
            "file": SimpleUploadedFile("aa.csv", csv("fireworks,glm-5-3,,output_speed_median,1e9")),
            "source": world["source"].pk,
            "measured_at": "2026-11-28 14:00",
            "publish": "on",
        },
    )
    assert response.status_code == 200
    assert "Held for review, not published" in response.text
    assert "above the plausible maximum of 5,000 tokens/s" in response.text
    assert Snapshot.objects.get().status == Snapshot.Status.DRAFT


# --- a different file for a published moment is a correction ---------------------------------------
def test_reimporting_a_different_file_for_the_same_moment_is_a_correction(world):
    original = import_snapshot(
        csv("together,glm-5-3,,output_speed_median,160"),
        source=world["source"].pk, measured_at=MEASURED_AT, publish=True,
    ).snapshot

    result = import_snapshot(
        csv("together,glm-5-3,,output_speed_median,165.5"),
        filename="glm-fixed.csv", source=world["source"].pk, measured_at=MEASURED_AT, publish=True,
    )

    correction = result.snapshot
    assert result.created and correction.pk != original.pk
    assert correction.status == Snapshot.Status.PUBLISHED and correction.supersedes_id == original.pk
    assert "Re-imported from a different file (glm-fixed.csv)" in correction.correction_note
    assert f"It corrects snapshot #{original.pk}" in result.summary
    original.refresh_from_db()
    assert original.status == Snapshot.Status.SUPERSEDED  # kept as history, no longer shown
    assert Snapshot.objects.published().filter(source=world["source"], measured_at=original.measured_at).count() == 1
    assert published_values() == [("together", "output_speed_median", Decimal("165.5"))]


def test_a_price_list_reimported_for_the_same_moment_corrects_its_prices(world):
    header = "provider,model,tier,input_per_m,output_per_m,currency"
    meta = {"source": world["price_list"].pk, "effective_date": "2026-11-20", "measured_at": MEASURED_AT}
    original = import_prices(csv("together,glm-5-3,,2.10,6.60,USD", header=header), **meta).snapshot

    result = import_prices(csv("together,glm-5-3,,2.00,6.60,USD", header=header), **meta)

    assert result.snapshot.supersedes_id == original.pk and result.snapshot.status == Snapshot.Status.PUBLISHED
    price = Price.objects.current().get(endpoint=world["endpoints"]["together"])
    assert (price.input_per_m, price.snapshot_id) == (Decimal("2"), result.snapshot.pk)
    # The old price is still there, as history of the superseded snapshot.
    assert Price.objects.filter(snapshot=original, input_per_m=Decimal("2.10")).exists()


def test_a_draft_correction_waits_for_the_editor_with_its_note(world):
    original = publish_baseline(world)
    result = import_snapshot(
        csv("together,glm-5-3,,output_speed_median,161"),
        source=world["source"].pk, measured_at=original.measured_at.isoformat(),
    )
    assert result.snapshot.status == Snapshot.Status.DRAFT and result.snapshot.supersedes_id == original.pk
    original.refresh_from_db()
    assert original.status == Snapshot.Status.PUBLISHED  # until the correction is published


# --- one payload, one snapshot ----------------------------------------------------------------------
def test_the_same_text_with_a_byte_order_mark_is_the_same_import(world):
    raw = csv("together,glm-5-3,,output_speed_median,160")
    first = import_snapshot(raw, source=world["source"].pk, measured_at=MEASURED_AT)

    again = import_snapshot(b"\xef\xbb\xbf" + raw, source=world["source"].pk, measured_at=MEASURED_AT)

    assert not again.created and again.snapshot.pk == first.snapshot.pk
    assert Snapshot.objects.count() == 1


def test_a_duplicate_that_slips_past_the_checks_is_refused_by_the_constraint(world, monkeypatch):
    """Two uploads racing on a database without the advisory lock: the unique constraint decides and
    the loser reports the winner's snapshot instead of making a second one."""
    raw = csv("together,glm-5-3,,output_speed_median,160")
    first = import_snapshot(raw, source=world["source"].pk, measured_at=MEASURED_AT)
    from benchmarks.ingest import importers

    monkeypatch.setattr(importers, "_lock_and_recheck", lambda checksum: None)
    monkeypatch.setattr(importers, "_already_imported", lambda checksum: None)

    again = import_snapshot(raw, source=world["source"].pk, measured_at=MEASURED_AT)

    assert Snapshot.objects.count() == 1
    assert not again.created
    # What the importer reports once the race is over is the stored snapshot.
    assert Snapshot.objects.get().pk == first.snapshot.pk


def test_measured_at_now_keeps_price_lists_apart(world):
    header = "provider,model,tier,input_per_m,output_per_m,currency"
    import_prices(csv("together,glm-5-3,,1.40,4.40,USD", header=header), source=world["price_list"].pk,
                  effective_date="2026-11-20")
    later = import_prices(csv("fireworks,glm-5-3,,1.40,4.40,USD", header=header), source=world["price_list"].pk,
                          effective_date="2026-11-20", measured_at=timezone.now() + datetime.timedelta(minutes=1))
    assert later.snapshot.supersedes_id is None  # another moment is new data, not a correction
