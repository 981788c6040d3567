"""A refresh publishes only news (issue 26, "No noise"): figures equal to the latest published snapshot
make an unchanged run, whatever drafts or unmapped rows came in between, and a value no endpoint can
have (a first chunk after 0 s) is held for review even when the source had no earlier value."""

import json
from decimal import Decimal

import pytest
from django.utils import translation

from benchmarks.cache import data_generation
from benchmarks.ingest.importers import import_snapshot
from benchmarks.models import Measurement, RefreshRun, Snapshot, UnmappedUpstreamRow

from .refresh_support import (
    AA_GLM_PROVIDERS,
    OPENROUTER_GLM,
    example_json,
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
    published_state,
    refresh_fixture,  # noqa: F401  (the refresh fixture)
    staged_history,
    world_fixture,  # noqa: F401  (the world fixture)
)

pytestmark = pytest.mark.django_db


def serve(fake_upstream, route, name, change=lambda body: None):
    body = example_json(name)
    change(body)
    fake_upstream.set(route, json.dumps(body))


def aa(fake_upstream, change=lambda providers: None):
    serve(fake_upstream, AA_GLM_PROVIDERS, "synthetic_aa_language_model_glm-5-3_commercial.json",
          lambda body: change(body["data"]["providers"]))


def openrouter(fake_upstream, change=lambda endpoints: None):
    serve(fake_upstream, OPENROUTER_GLM, "synthetic_openrouter_z-ai_glm-5.3_endpoints.json",
          lambda body: change(body["data"]["endpoints"]))


def snapshots_of(source):
    return list(Snapshot.objects.filter(source=source).order_by("pk").values_list("pk", "status"))


def test_a_held_draft_in_between_does_not_make_the_published_figures_news_again(world, fake_upstream, refresh):
    published = refresh(world.aa_providers)
    assert published.status == RefreshRun.Status.CHANGED and published.published

    aa(fake_upstream, lambda providers: providers[1]["performance"].update(median_output_tokens_per_second=1643))
    held = refresh(world.aa_providers)
    assert held.status == RefreshRun.Status.HELD  # a 10× jump waits for an editor
    state, generation, before = published_state(), data_generation(), snapshots_of(world.aa_providers)

    aa(fake_upstream)  # the upstream is back to the published figures
    again = refresh(world.aa_providers)

    # Before: the latest snapshot was the draft, so this run published a snapshot of "0 figures changed".
    assert again.status == RefreshRun.Status.UNCHANGED, again.notes
    assert again.notes.startswith(f"Same data as snapshot #{published.snapshot_id} (Published).")
    assert f"Draft snapshot #{held.snapshot_id} still waits for an editor" in again.notes
    assert snapshots_of(world.aa_providers) == before
    assert published_state() == state and data_generation() == generation

    # The held figures once more: the same draft still waits, no second copy of it.
    aa(fake_upstream, lambda providers: providers[1]["performance"].update(median_output_tokens_per_second=1643))
    same_as_draft = refresh(world.aa_providers)
    assert same_as_draft.status == RefreshRun.Status.UNCHANGED
    assert same_as_draft.notes.startswith(f"Same data as snapshot #{held.snapshot_id} (Draft), which waits")
    assert snapshots_of(world.aa_providers) == before


def test_a_change_in_unmapped_rows_alone_publishes_nothing(world, fake_upstream, refresh):
    first = refresh(world.openrouter)
    assert first.status == RefreshRun.Status.CHANGED and first.unmapped_rows == 1  # Chutes
    state, before = published_state(), snapshots_of(world.openrouter)

    def chutes_changes(endpoints):
        chutes = next(e for e in endpoints if e["tag"] == "chutes/fp8")
        chutes["pricing"]["prompt"] = "0.0000009"  # a row nobody mapped
        chutes["throughput_last_30m"] = {"p50": 70.1}
        for endpoint in endpoints:
            endpoint["name"] = endpoint["name"].upper()  # names are not figures either

    openrouter(fake_upstream, chutes_changes)
    run = refresh(world.openrouter)

    assert run.status == RefreshRun.Status.UNCHANGED, run.notes
    assert snapshots_of(world.openrouter) == before and published_state() == state
    chutes = UnmappedUpstreamRow.objects.get(upstream_id="z-ai/glm-5.3|chutes/fp8")
    assert chutes.times_seen == 2 and chutes.sample["price"][0] == "0.9"  # still listed, with the new values


def test_figures_equal_to_a_published_snapshot_without_a_figures_checksum_are_unchanged(
    world, fake_upstream, refresh
):
    """A snapshot from an import, the demo or before the checksum covered figures only is compared by
    its figures: readers would see nothing new."""
    first = refresh(world.openrouter)
    with staged_history():
        Snapshot.objects.filter(pk=first.snapshot_id).update(rows_checksum="")
    before = snapshots_of(world.openrouter)

    run = refresh(world.openrouter)

    assert run.status == RefreshRun.Status.UNCHANGED
    assert run.notes.startswith("No figure differs from what this source has published; nothing was written.")
    assert snapshots_of(world.openrouter) == before


def test_a_first_token_after_0_s_is_held_even_without_an_earlier_value(world, fake_upstream, refresh):
    assert not Measurement.objects.filter(snapshot__source=world.openrouter).exists()
    openrouter(fake_upstream, lambda endpoints: endpoints[0].update(latency_last_30m={"p50": 0}))
    state = published_state()

    run = refresh(world.openrouter)

    # Before: published as "ttft_median 0.000000", there being no earlier value to jump from.
    assert run.status == RefreshRun.Status.HELD, run.notes
    assert run.snapshot.status == Snapshot.Status.DRAFT and not run.published
    assert "Time to first token median of 0 s is below the plausible minimum of 0.01 s" in run.snapshot.review_notes
    assert published_state() == state


def test_a_first_import_with_a_zero_speed_is_held_for_review(world):
    endpoint = world.glm["Together AI"]
    with translation.override("en"):
        result = import_snapshot(
            (
                "provider,model,tier,metric,value\n"
                f"{endpoint.provider.slug},{endpoint.model.slug},,output_speed_median,0\n"
                f"{endpoint.provider.slug},{endpoint.model.slug},,ttfc_median,0.67\n"
            ).encode(),
            source=world.openrouter.pk, measured_at="2026-11-28T14:00:00Z", publish=True,
        )

    assert result.held and result.snapshot.status == Snapshot.Status.DRAFT
    assert "Output speed of 0 tokens/s is below the plausible minimum of 1 tokens/s" in result.snapshot.review_notes
    assert "First chunk" not in result.snapshot.review_notes
    assert Decimal("0") in result.snapshot.measurements.values_list("value", flat=True)
