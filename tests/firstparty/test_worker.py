"""A real Celery worker consuming the `probes` queue runs one probe cycle end to end."""

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
