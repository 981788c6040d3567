"""A killed worker's refresh run is failed within the heartbeat window, not 30–35 minutes later
(issue 26): a real Celery worker runs a refresh against a slow fake upstream, beats while it waits, and
is killed with SIGKILL; the sweep fails the run once its last beat is REFRESH_HEARTBEAT_TIMEOUT_SECONDS
old, and not before. The window is made short for the test through the same settings production uses."""

import datetime
import time
import uuid

import pytest
from django.utils import timezone

from benchmarks.ingest.scheduling import enqueue_refresh, fail_stuck_runs
from benchmarks.models import RefreshRun, Snapshot

from .refresh_support import (
    AA_GLM_PROVIDERS,
    AA_KEY,
    FakeUpstream,
    Reply,
    build_world,
    example,
    published_state,
)
from .worker_support import celery_worker

BEAT = 0.2  # seconds between heartbeats, in the worker
TIMEOUT = 2.0  # seconds of silence after which the sweep calls a run dead


def wait_until(condition, what, proc, log_path, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        if proc.poll() is not None:
            pytest.fail(f"the worker exited early:\n{log_path.read_text()}")
        time.sleep(0.1)
    pytest.fail(f"{what} did not happen within {seconds} s:\n{log_path.read_text()}")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_killed_workers_run_is_failed_once_its_heartbeat_is_timeout_old(settings, tmp_path):
    settings.REFRESH_HEARTBEAT_SECONDS = BEAT
    settings.REFRESH_HEARTBEAT_TIMEOUT_SECONDS = TIMEOUT
    upstream = FakeUpstream().start()
    # The upstream takes a minute to answer: the run is alive, waiting, when the worker is killed.
    upstream.set(AA_GLM_PROVIDERS, Reply(body=example("synthetic_aa_language_model_glm-5-3_commercial.json"),
                                         delay=60))
    queue = f"test-heartbeat-{uuid.uuid4().hex[:8]}"
    log_path = tmp_path / "worker.log"
    env = {
        "ARTIFICIAL_ANALYSIS_BASE_URL": f"{upstream.url}/api/v2",
        "ARTIFICIAL_ANALYSIS_API_KEY": AA_KEY,
        "REFRESH_HTTP_TIMEOUT": "120",
        "REFRESH_RUN_DEADLINE": "300",
        "REFRESH_HEARTBEAT_SECONDS": str(BEAT),
    }
    world = build_world()
    state = published_state()
    try:
        with open(log_path, "w") as log, celery_worker(queue, env, output=log) as proc:
            queued = enqueue_refresh(world.aa_providers, queue=queue)
            run = wait_until(
                lambda: RefreshRun.objects.filter(
                    pk=queued.pk, status=RefreshRun.Status.RUNNING, progress__startswith="Reading"
                ).first(),
                "the worker starting the run", proc, log_path,
            )
            assert run.worker.endswith(f":{proc.pid}")

            # The run outlives the timeout and keeps beating: the sweep leaves a slow run alone.
            alive_since = run.started + datetime.timedelta(seconds=2 * TIMEOUT)
            beating = wait_until(
                lambda: RefreshRun.objects.filter(pk=run.pk, heartbeat_at__gt=alive_since).first(),
                "heartbeats past the timeout", proc, log_path,
            )
            assert timezone.now() - beating.started > datetime.timedelta(seconds=TIMEOUT)
            assert fail_stuck_runs() == []

            proc.kill()  # SIGKILL: no Python code of the worker runs after this
            proc.wait(timeout=20)
    finally:
        upstream.stop()

    last_beat = RefreshRun.objects.get(pk=run.pk).heartbeat_at
    time.sleep(5 * BEAT)
    assert RefreshRun.objects.get(pk=run.pk).heartbeat_at == last_beat  # the beating stopped with the worker

    # Silent for less than the timeout: still "running". Past it: failed, saying what the database holds.
    assert fail_stuck_runs(now=last_beat + datetime.timedelta(seconds=TIMEOUT - 0.1)) == []
    assert fail_stuck_runs(now=last_beat + datetime.timedelta(seconds=TIMEOUT + 0.1)) == [run.pk]
    failed = RefreshRun.objects.get(pk=run.pk)
    assert failed.status == RefreshRun.Status.FAILED and failed.snapshot is None
    assert f"its worker stopped beating: the last heartbeat from {run.worker} was at" in failed.error
    assert "It wrote no snapshot" in failed.error
    assert not Snapshot.objects.filter(source=world.aa_providers).exclude(pk=world.baseline.pk).exists()
    assert published_state() == state
