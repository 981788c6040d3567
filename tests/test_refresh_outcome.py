"""A refresh run says what happened: its outcome and its snapshot commit together, a later error never
overwrites that outcome, and the sweep of stuck runs says what the database holds of them.
(tests/test_crash_consistency.py stops a real database at these steps.)"""

import datetime
import json

import pytest
from django.utils import timezone

from benchmarks.ingest.refresh import Refresh, fail
from benchmarks.ingest.scheduling import fail_stuck_runs
from benchmarks.models import RefreshRun, Snapshot

from .refresh_support import (
    AA_FREE_PAGE_2,
    AA_GLM_PROVIDERS,
    example_json,
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
    published_state,
    refresh_fixture,  # noqa: F401  (the refresh fixture)
    world_fixture,  # noqa: F401  (the world fixture)
)

pytestmark = pytest.mark.django_db


def test_a_failure_after_the_snapshot_was_written_publishes_nothing(world, fake_upstream, refresh, monkeypatch):
    """The run's bookkeeping after the snapshot (validators, unmapped rows, its outcome) is in the
    snapshot's transaction: if it fails, so does the snapshot, and the run says "failed" truthfully."""
    before = published_state()

    def broken(self, *args):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(Refresh, "remember_validators", broken)
    run = refresh(world.aa_providers)

    assert run.status == RefreshRun.Status.FAILED and "the database went away" in run.error
    assert run.snapshot is None
    assert published_state() == before  # readers see nothing new


def test_an_error_after_the_outcome_committed_does_not_overwrite_it(world, fake_upstream, refresh):
    run = refresh(world.aa_providers)
    assert run.status == RefreshRun.Status.CHANGED

    again = fail(run, "an error after the commit")  # e.g. the database stopped during post-commit work

    assert again.status == RefreshRun.Status.CHANGED and again.snapshot_id == run.snapshot_id
    stored = RefreshRun.objects.get(pk=run.pk)
    assert stored.status == RefreshRun.Status.CHANGED and stored.published and stored.error == ""


def stuck_run(world, **values):
    return RefreshRun.objects.create(
        source=world.aa_providers, adapter="artificial_analysis", status=RefreshRun.Status.RUNNING,
        started=timezone.now() - datetime.timedelta(hours=1), progress="Writing", **values,
    )


def test_the_sweep_says_a_stuck_run_wrote_no_snapshot_when_the_database_holds_none(world, settings):
    settings.REFRESH_STUCK_AFTER_MINUTES = 30
    run = stuck_run(world)
    assert fail_stuck_runs() == [run.pk]
    run.refresh_from_db()
    assert run.status == RefreshRun.Status.FAILED and run.snapshot is None
    assert "It wrote no snapshot" in run.error and "readers see the data they saw before" in run.error


def test_the_sweep_gives_a_stuck_run_with_a_snapshot_that_snapshots_outcome(world, settings):
    """Never "nothing was written" beside a published snapshot (the report of issue 26)."""
    settings.REFRESH_STUCK_AFTER_MINUTES = 30
    published = Snapshot.objects.create(source=world.aa_providers, measured_at=timezone.now())
    published.publish()
    run = stuck_run(world, snapshot=published)

    assert fail_stuck_runs() == [run.pk]
    run.refresh_from_db()
    assert (run.status, run.published, run.error) == (RefreshRun.Status.CHANGED, True, "")
    assert f"Snapshot #{published.pk} was written (Published)" in run.notes


# --- what was read ------------------------------------------------------------------------------------
def test_a_rejected_run_records_the_rows_it_read(world, fake_upstream, refresh):
    """Before, "rows read: 0" for every run refused after reading (issue 26)."""
    body = example_json("synthetic_aa_language_model_glm-5-3_commercial.json")
    body["data"]["providers"][1]["performance"]["median_output_tokens_per_second"] = -164.3
    fake_upstream.set(AA_GLM_PROVIDERS, json.dumps(body))

    run = refresh(world.aa_providers)

    assert run.status == RefreshRun.Status.FAILED and "cannot be negative" in run.error
    assert RefreshRun.objects.get(pk=run.pk).rows_read == 7


def test_a_run_that_fails_half_way_through_a_paged_list_records_the_pages_it_read(world, fake_upstream, refresh):
    page = example_json("synthetic_aa_language_models_free_page2.json")
    page["data"][0]["performance"] = "n/a"  # page 2 breaks after page 1 was read
    fake_upstream.set(AA_FREE_PAGE_2, json.dumps(page))

    run = refresh(world.aa_free)

    assert run.status == RefreshRun.Status.FAILED and "models list page 2, data[0].performance" in run.error
    assert RefreshRun.objects.get(pk=run.pk).rows_read == 2
