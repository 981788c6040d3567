"""A real Celery worker process, on the local Redis and the test PostgreSQL database, refreshes sources
from a fake upstream on 127.0.0.1: "Refresh now", a scheduled pass, and a failing upstream."""

import time
import uuid
from decimal import Decimal

import pytest

from benchmarks.ingest.scheduling import enqueue_refresh
from benchmarks.ingest.tasks import refresh_openrouter
from benchmarks.models import Measurement, Price, RefreshConfig, RefreshRun, Snapshot

from .refresh_support import AA_GLM_PROVIDERS, AA_KEY, FakeUpstream, Reply, build_world, published_state
from .worker_support import celery_worker


@pytest.fixture
def upstream():
    server = FakeUpstream().start()
    server.serve_examples()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def refresh_worker(upstream, tmp_path):
    """A worker on its own queue, pointed at the fake upstream through the environment like production."""
    queue = f"test-refresh-{uuid.uuid4().hex[:8]}"
    log_path = tmp_path / "worker.log"
    env = {
        "ARTIFICIAL_ANALYSIS_BASE_URL": f"{upstream.url}/api/v2",
        "OPENROUTER_BASE_URL": f"{upstream.url}/api/v1",
        "ARTIFICIAL_ANALYSIS_API_KEY": AA_KEY,
        "REFRESH_HTTP_TIMEOUT": "5",
        "REFRESH_HTTP_ATTEMPTS": "2",
        "REFRESH_HTTP_BACKOFF": "0",
    }
    with open(log_path, "w") as log, celery_worker(queue, env, output=log) as proc:
        yield queue, proc, log_path


def wait_for(proc, log_path, condition, what, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        if proc.poll() is not None:
            pytest.fail(f"the worker exited early:\n{log_path.read_text()}")
        time.sleep(0.2)
    pytest.fail(f"{what} did not happen within {seconds} s:\n{log_path.read_text()}")


def finished(run_id):
    return lambda: RefreshRun.objects.filter(pk=run_id, status__in=RefreshRun.FINISHED).first()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_refreshes_from_the_fake_upstream_and_records_every_outcome(refresh_worker, upstream):
    queue, proc, log_path = refresh_worker
    world = build_world()

    # 1. "Refresh now" from the admin: a queued run that the worker picks up.
    queued = enqueue_refresh(world.aa_providers, queue=queue)
    assert queued.status == RefreshRun.Status.QUEUED
    run = wait_for(proc, log_path, finished(queued.pk), "the manual refresh")
    assert run.status == RefreshRun.Status.CHANGED, run.error
    assert run.published and run.snapshot.status == Snapshot.Status.PUBLISHED
    assert Measurement.objects.get(
        snapshot=run.snapshot, endpoint=world.glm["Baseten (Fast)"], metric="output_speed_median"
    ).value == Decimal("283.4")
    assert upstream.hits(AA_GLM_PROVIDERS)[0]["headers"]["x-api-key"] == AA_KEY

    # 2. What beat sends: no arguments, every due OpenRouter source.
    RefreshConfig.objects.exclude(adapter="openrouter").update(enabled=False)
    refresh_openrouter.apply_async(queue=queue)
    scheduled = wait_for(
        proc,
        log_path,
        lambda: RefreshRun.objects.filter(source=world.openrouter, status__in=RefreshRun.FINISHED).first(),
        "the scheduled refresh",
    )
    assert scheduled.trigger == RefreshRun.Trigger.SCHEDULE and scheduled.status == RefreshRun.Status.CHANGED
    assert Price.objects.current().get(endpoint=world.glm["Novita AI"]).source == world.openrouter

    # 3. The upstream breaks: the run fails with its reason and readers see exactly what they saw.
    upstream.set(AA_GLM_PROVIDERS, Reply(500, "Internal Server Error"))
    state = published_state()
    broken = enqueue_refresh(world.aa_providers, queue=queue)
    failed = wait_for(proc, log_path, finished(broken.pk), "the failing refresh")
    assert failed.status == RefreshRun.Status.FAILED
    assert "HTTP 500 (server error); gave up after 2 attempts" in failed.error
    assert published_state() == state

    proc.terminate()
    proc.wait(timeout=20)
    worker_log = log_path.read_text()
    assert "benchmarks.tasks.refresh_artificial_analysis" in worker_log
    assert AA_KEY not in worker_log
