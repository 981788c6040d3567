"""The probe against a fake OpenAI-compatible provider: timings, every fault as a record, key, budget."""

import logging

import pytest

from firstparty.models import ProbeConfig, RequestRecord
from firstparty.tasks import dispatch_due_probes, probe_endpoint
from tests.fake_openai import Scenario
from tests.firstparty_support import KEY_ENV, KEY_VALUE, make_config

pytestmark = pytest.mark.django_db


def probe_once(config):
    pk = probe_endpoint.delay(config.pk).get()
    return RequestRecord.objects.get(pk=pk) if pk else None


def test_measured_ttft_and_tokens_per_second_match_the_server(fake_provider, api_key, series):
    fake_provider.scenario = Scenario(first_token_delay=0.5, token_interval=0.05, tokens=31)
    config = make_config(fake_provider.base_url, series=series)
    record = probe_once(config)
    assert record.outcome == "success"
    # The server keeps exact time (tests/fake_openai.py); the client's clock adds only its own latency.
    # The close bounds on a busy machine are test_probe_timing.py's; one request here is the plumbing.
    assert 0.5 <= record.ttft_s < 0.5 + 0.1
    # 30 tokens after the first, one every 50 ms: 20 tokens/s.
    assert 19 < record.tokens_per_second <= 20.5
    assert record.output_tokens == 31 and record.token_count == "usage"
    assert 2.0 <= record.e2e_s < 2.0 + 0.1
    assert record.series == series


def test_request_follows_the_methodology_defaults(fake_provider, api_key):
    config = make_config(fake_provider.base_url)
    probe_once(config)
    headers, body = fake_provider.requests[0]
    assert headers["Authorization"] == f"Bearer {KEY_VALUE}"
    assert body["stream"] is True and body["temperature"] == 0 and body["top_p"] == 1
    assert body["max_tokens"] == 256 and body["response_format"] == {"type": "json_object"}
    assert body["model"] == config.endpoint.api_model_id and len(body["messages"]) == 2
    assert config.timeout_seconds == 20 and config.concurrency == 1


@pytest.mark.parametrize(
    ("scenario", "settings", "outcome", "status", "error_part"),
    [
        (Scenario(status=429), {}, "http_error", 429, "HTTP 429"),
        (Scenario(status=500), {}, "http_error", 500, "HTTP 500"),
        (Scenario(status=503), {}, "http_error", 503, "HTTP 503"),
        (Scenario(tokens=20, disconnect_after=5), {}, "malformed", None, "closed in the middle"),
        (Scenario(tokens=20, malformed_at=3), {}, "malformed", 200, "not JSON"),
        (Scenario(send_done=False), {}, "malformed", None, "without [DONE]"),
        (Scenario(stall=2.0), {"timeout_seconds": 0.5}, "timeout", None, "within 0.5 s"),
        (Scenario(tokens=12, token_interval=0.15), {"timeout_seconds": 0.8}, "timeout", None, "within 0.8 s"),
        (Scenario(answer={"items": ["wrong"]}), {"expected_answer": {"items": ["budget", "room"]}},
         "wrong_answer", None, "differs"),
    ],
    ids=["429", "500", "503", "disconnect", "malformed-chunk", "no-done", "stall", "slow-drip", "wrong-answer"],
)
def test_every_fault_is_a_record_with_its_outcome(fake_provider, api_key, caplog, scenario, settings, outcome,
                                                  status, error_part):
    caplog.set_level(logging.DEBUG)
    fake_provider.scenario = scenario
    config = make_config(fake_provider.base_url, **settings)
    record = probe_once(config)
    assert RequestRecord.objects.count() == 1
    assert record.outcome == outcome
    assert record.http_status == status
    assert error_part in record.error
    if outcome in ("http_error", "malformed", "timeout"):
        assert record.e2e_s is None and record.tokens_per_second is None
    # the key appears nowhere we write
    stored = " ".join(str(v) for v in RequestRecord.objects.values().get().values())
    assert KEY_VALUE not in stored and KEY_VALUE not in caplog.text


def test_success_with_expected_answer(fake_provider, api_key):
    config = make_config(fake_provider.base_url, expected_answer={"items": ["budget", "room"]})
    assert probe_once(config).outcome == "success"


def test_missing_key_variable_sends_nothing_and_says_which(fake_provider, monkeypatch, caplog):
    monkeypatch.delenv(KEY_ENV, raising=False)
    config = make_config(fake_provider.base_url)
    assert probe_once(config) is None
    assert fake_provider.requests == [] and RequestRecord.objects.count() == 0
    config.refresh_from_db()
    assert KEY_ENV in config.last_error and "no request was sent" in config.last_error


def test_budget_stops_probing_for_the_day(fake_provider, api_key):
    config = make_config(fake_provider.base_url, daily_budget=2)
    results = [probe_once(config) for _ in range(3)]
    assert [r is not None for r in results] == [True, True, False]
    assert len(fake_provider.requests) == 2 and RequestRecord.objects.count() == 2
    assert config.budget_exhausted()


def test_dispatcher_enqueues_due_endpoints_once_per_cadence(fake_provider, api_key):
    due = make_config(fake_provider.base_url, enabled=True, cadence_minutes=10)
    make_config(fake_provider.base_url, endpoint=_other_endpoint(), enabled=False)
    assert dispatch_due_probes.delay().get() == [due.pk]
    assert RequestRecord.objects.count() == 1
    assert dispatch_due_probes.delay().get() == []  # not due again for ten minutes
    due.refresh_from_db()
    assert due.next_due_at is not None


def test_dispatcher_skips_an_endpoint_whose_budget_is_spent(fake_provider, api_key):
    config = make_config(fake_provider.base_url, enabled=True, daily_budget=1)
    probe_once(config)
    ProbeConfig.objects.filter(pk=config.pk).update(next_due_at=None)
    assert dispatch_due_probes.delay().get() == []
    assert len(fake_provider.requests) == 1


def _other_endpoint():
    from tests.firstparty_support import make_endpoint

    return make_endpoint("other")
