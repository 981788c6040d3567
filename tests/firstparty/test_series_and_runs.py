"""A continuous series fed by the probe drives a 24-hour Leaderboard; runs are started, frozen and aggregated."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from benchmarks.models import Measurement
from firstparty.aggregation import aggregate_series_period
from firstparty.models import ProbeConfig, RequestRecord, Run
from firstparty.scheduling import start_run
from firstparty.tasks import probe_endpoint, run_endpoint_batch
from tests.fake_openai import Scenario
from tests.firstparty_support import KEY_ENV, first_party_source, make_config, make_endpoint
from tests.test_blocks import render

pytestmark = pytest.mark.django_db


def probe_round(fake_provider, configs_and_intervals, repeats=2):
    for config, interval in configs_and_intervals:
        fake_provider.scenario = Scenario(first_token_delay=0.01, token_interval=interval, tokens=11)
        for _ in range(repeats):
            probe_endpoint.delay(config.pk).get()


def test_probe_series_drives_a_24_hour_leaderboard(fake_provider, api_key, series, settings):
    settings.PROBE_REGION = "eu-test"
    fast = make_config(fake_provider.base_url, endpoint=make_endpoint("fast-host"), series=series)
    slow = make_config(fake_provider.base_url, endpoint=make_endpoint("slow-host"), series=series)
    probe_round(fake_provider, [(fast, 0.01), (slow, 0.04)])
    first = aggregate_series_period(series, timezone.now())
    probe_round(fake_provider, [(fast, 0.012), (slow, 0.05)])
    second = aggregate_series_period(series, timezone.now())
    assert RequestRecord.objects.filter(series=series, region="eu-test").count() == 8
    assert first.status == second.status == "published"

    def window_mean(config):
        values = Measurement.objects.filter(snapshot__in=[first, second], endpoint=config.endpoint,
                                            metric="tps_median").values_list("value", flat=True)
        return sum(values) / len(values)

    raw = {"metric": "tps_median", "models": [{"model": fast.endpoint.model.pk, "source": series.source.pk}],
           "window_hours": 24, "limit": None, "name_style": "short"}
    _html, text, _data = render("leaderboard", raw)
    fast_text = f"{window_mean(fast):.1f}"
    slow_text = f"{window_mean(slow):.1f}"
    assert f"1GLM-5-3-FLASHFast-Host{fast_text}" in text
    assert f"2GLM-5-3-FLASHSlow-Host{slow_text}" in text
    assert "averageofthelast24hours" in text


def test_run_from_start_to_snapshot_with_frozen_configuration(fake_provider, api_key):
    source = first_party_source("batch")
    configs = [make_config(fake_provider.base_url, endpoint=make_endpoint(slug)) for slug in ("acme", "beta")]
    run = Run.objects.create(name="batch", source=source, requests_per_endpoint=3, tokenizer="usage")
    run.endpoints.set([c.endpoint for c in configs])
    endpoint_ids = start_run(run)
    ProbeConfig.objects.filter(pk=configs[0].pk).update(max_tokens=99)  # later edits do not touch the run
    for endpoint_id in endpoint_ids:
        run_endpoint_batch.delay(run.pk, endpoint_id).get()
    run.refresh_from_db()
    assert run.records.count() == 6 and run.progress() == (6, 6)
    assert run.status == "aggregated" and run.snapshot.status == "published"
    assert run.config["endpoints"][str(configs[0].endpoint_id)]["max_tokens"] == 256
    assert all(body["max_tokens"] == 256 for _headers, body in fake_provider.requests)
    assert run.snapshot.measurements.filter(metric="sample_count", value=3).count() == 2


def test_run_refuses_to_start_without_the_key_variable(fake_provider, monkeypatch):
    monkeypatch.delenv(KEY_ENV, raising=False)
    config = make_config(fake_provider.base_url)
    run = Run.objects.create(name="no key", source=first_party_source("nokey"), requests_per_endpoint=3)
    run.endpoints.set([config.endpoint])
    with pytest.raises(ValidationError) as error:
        start_run(run)
    assert KEY_ENV in str(error.value) and "no request was sent" in str(error.value)
    run.refresh_from_db()
    assert run.status == "draft" and fake_provider.requests == []
