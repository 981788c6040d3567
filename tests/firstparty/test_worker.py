"""A real Celery worker consuming the `probes` queue runs one probe cycle end to end."""

import subprocess
import sys
import time

import pytest
from django.db import connection, connections
from django.utils import timezone

from firstparty.aggregation import aggregate_series_period
from firstparty.models import RequestRecord
from firstparty.tasks import dispatch_due_probes
from tests.fake_openai import Scenario
from tests.firstparty_support import KEY_ENV, KEY_VALUE, make_config
from tests.worker_support import celery_worker


@pytest.fixture
def probes_worker():
    with celery_worker("probes", {KEY_ENV: KEY_VALUE, "PROBE_REGION": "worker-region"}) as proc:
        yield proc


def open_transactions_elsewhere():
    """Connections to the test database sitting inside a transaction (run from the fake server's thread)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND state LIKE 'idle in transaction%%' AND pid <> pg_backend_pid()"
            )
            return cursor.fetchone()[0]
    finally:
        connections.close_all()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_probes_queue_worker_runs_one_cycle(fake_provider, series, probes_worker):
    seen_open = []
    fake_provider.on_request = lambda handler: seen_open.append(open_transactions_elsewhere())
    fake_provider.scenario = Scenario(first_token_delay=0.2, token_interval=0.02, tokens=21)
    config = make_config(fake_provider.base_url, series=series, enabled=True, cadence_minutes=30)

    assert dispatch_due_probes() == [config.pk]  # beat's dispatcher, run here; the probe goes to the queue
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not RequestRecord.objects.exists():
        if probes_worker.poll() is not None:
            pytest.fail(f"worker exited early:\n{probes_worker.stdout.read()}")
        time.sleep(0.25)
    else:
        if not RequestRecord.objects.exists():
            probes_worker.terminate()
            pytest.fail(f"no record within 90 s:\n{probes_worker.communicate(timeout=20)[0]}")

    record = RequestRecord.objects.get()
    assert record.outcome == "success" and record.region == "worker-region" and record.series == series
    assert 0.2 <= record.ttft_s < 1.0 and record.tokens_per_second > 0
    assert fake_provider.requests[0][0]["Authorization"] == f"Bearer {KEY_VALUE}"
    assert seen_open == [0]  # no transaction was held open while the request was in flight
    snapshot = aggregate_series_period(series, timezone.now())
    assert snapshot.measurements.get(metric="sample_count", endpoint=config.endpoint).value == 1


def wait_for(condition, worker, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        if worker.poll() is not None:
            pytest.fail(f"worker exited early:\n{worker.stdout.read()}")
        time.sleep(0.25)
    worker.terminate()
    pytest.fail(f"not done within {seconds} s:\n{worker.communicate(timeout=20)[0]}")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_run_on_the_probes_worker_publishes_the_servers_timing(fake_provider, api_key, probes_worker):
    """Issue 23 the documented way (probe settings, a run, a `-Q probes` worker) with a CPU kept busy:
    the published TTFT was 0.448 s for a server answering in 0.200 s."""
    from firstparty.models import Run
    from firstparty.scheduling import start_run
    from firstparty.tasks import run_endpoint_batch
    from tests.firstparty.test_probe_timing import END, FIRST, INTERVAL, TOKENS
    from tests.firstparty_support import first_party_source

    fake_provider.scenario = Scenario(first_token_delay=FIRST, token_interval=INTERVAL, tokens=TOKENS)
    config = make_config(fake_provider.base_url)
    run = Run.objects.create(name="timing", source=first_party_source("timing"), requests_per_endpoint=30)
    run.endpoints.set([config.endpoint])
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        for endpoint_id in start_run(run):
            run_endpoint_batch.apply_async(args=[run.pk, endpoint_id])
        wait_for(lambda: Run.objects.filter(pk=run.pk, snapshot__isnull=False).exists(), probes_worker)
    finally:
        burner.kill()
        burner.wait()

    run.refresh_from_db()
    figures = {m.metric: float(m.value) for m in run.snapshot.measurements.all()}
    report = {k: figures[k] for k in ("ttft_median", "ttft_p95", "e2e_median", "e2e_p95", "tps_median")}
    assert abs(figures["ttft_median"] - FIRST) <= max(0.05 * FIRST, 0.010), report
    assert abs(figures["ttft_p95"] - FIRST) <= 0.10 * FIRST, report
    assert abs(figures["e2e_median"] - END) <= 0.05 * END, report
    assert abs(figures["e2e_p95"] - END) <= 0.10 * END, report
    records = RequestRecord.objects.filter(run=run)
    # one connection for the whole batch: opened (and measured) once, then reused
    assert records.filter(connect_s__isnull=False).count() == 1
    assert len(set(fake_provider.peers)) == 1
