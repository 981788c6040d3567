"""The probe's clock against a server with exact timing, on a machine kept busy (issue 23).

The fake server sends the first content token FIRST seconds after the request arrives, then one token
every INTERVAL seconds, TOKENS in all; a process burning a CPU runs alongside. The figures are computed
here with the standard library (statistics), independently of the project's aggregation code.
"""

import statistics
import subprocess
import sys
import time

import httpx
import pytest

from firstparty.http_client import close_clients
from firstparty.models import ProbeConfig
from firstparty.probe import stream_completion
from tests.fake_openai import Scenario
from tests.firstparty_support import KEY_ENV, KEY_VALUE

FIRST, INTERVAL, TOKENS = 0.2, 0.01, 20
END = FIRST + (TOKENS - 1) * INTERVAL  # 0.39 s: the last token leaves the server
REQUESTS = 40


def probe_params(base_url, **settings):
    """The request of the admin's default probe settings (an unsaved ProbeConfig: no database)."""
    return ProbeConfig(base_url=base_url, api_model_id="acme/glm-5-3-flash", api_key_env=KEY_ENV,
                       **settings).request_parameters()


def p95(values):
    return statistics.quantiles(values, n=100, method="inclusive")[94]


@pytest.fixture
def busy_cpu():
    """A process spinning on one CPU for the test's duration."""
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    time.sleep(0.2)  # let it get going
    yield burner
    burner.kill()
    burner.wait()


@pytest.fixture
def fresh_client():
    """No client built yet in this process: the next request builds one (as a worker's first does)."""
    close_clients()
    yield
    close_clients()


def test_ttft_and_end_to_end_match_an_exact_server_on_a_busy_machine(fake_provider, busy_cpu, fresh_client):
    fake_provider.scenario = Scenario(first_token_delay=FIRST, token_interval=INTERVAL, tokens=TOKENS)
    params = probe_params(fake_provider.base_url)
    results = [stream_completion(params, KEY_VALUE) for _ in range(REQUESTS)]

    assert {r.outcome for r in results} == {"success"}
    ttfts = [r.ttft_s for r in results]
    ends = [r.e2e_s for r in results]
    speeds = [r.tokens_per_second for r in results]
    report = (f"TTFT median {statistics.median(ttfts):.4f} p95 {p95(ttfts):.4f}; "
              f"end-to-end median {statistics.median(ends):.4f} p95 {p95(ends):.4f}; "
              f"tokens/s median {statistics.median(speeds):.2f}")
    print(report)
    assert abs(statistics.median(ttfts) - FIRST) <= max(0.05 * FIRST, 0.010), report
    assert abs(p95(ttfts) - FIRST) <= 0.10 * FIRST, report
    assert abs(statistics.median(ends) - END) <= 0.05 * END, report
    assert abs(p95(ends) - END) <= 0.10 * END, report
    # 19 tokens after the first in 0.19 s: 100 tokens/s
    assert abs(statistics.median(speeds) - 100) <= 5, report


def test_building_the_client_is_not_inside_the_timed_span(fake_provider, fresh_client, monkeypatch):
    """A client that takes 300 ms to build (a busy machine loading the CA bundle) leaves TTFT alone."""
    fake_provider.scenario = Scenario(first_token_delay=FIRST, token_interval=INTERVAL, tokens=TOKENS)
    built = []
    build = httpx.Client.__init__

    def slow_build(client, *args, **kwargs):
        time.sleep(0.3)
        built.append(client)
        build(client, *args, **kwargs)

    monkeypatch.setattr(httpx.Client, "__init__", slow_build)
    before = time.perf_counter()
    result = stream_completion(probe_params(fake_provider.base_url), KEY_VALUE)
    took = time.perf_counter() - before

    assert len(built) == 1  # this very request had to build the client ...
    assert took >= 0.3 + END  # ... and waited for it
    assert result.outcome == "success"
    assert FIRST <= result.ttft_s < FIRST + 0.1  # ... but not on the clock
    assert END <= result.e2e_s < END + 0.1


def test_connection_setup_is_recorded_apart_and_the_pool_is_reused(fake_provider, fresh_client):
    fake_provider.scenario = Scenario(first_token_delay=0.05, token_interval=0.005, tokens=5)
    params = probe_params(fake_provider.base_url)
    first, second, third = (stream_completion(params, KEY_VALUE) for _ in range(3))

    assert [r.outcome for r in (first, second, third)] == ["success"] * 3
    # the first request opened the connection: set-up measured, outside its TTFT
    assert first.connect_s is not None and 0 < first.connect_s < first.ttft_s
    # the next ones went out on the same open connection
    assert second.connect_s is None and third.connect_s is None
    assert len(set(fake_provider.peers)) == 1
    assert first.record_fields()["connect_s"] == first.connect_s


def test_a_new_connection_is_measured_again_after_the_server_closed_it(fake_provider, fresh_client):
    fake_provider.scenario = Scenario(first_token_delay=0.05, token_interval=0.005, tokens=5)
    params = probe_params(fake_provider.base_url)
    assert stream_completion(params, KEY_VALUE).connect_s is not None
    fake_provider.scenario = Scenario(first_token_delay=0.05, token_interval=0.005, tokens=5, status=503)
    failed = stream_completion(params, KEY_VALUE)  # an error response: its connection is not kept
    assert failed.outcome == "http_error"
    fake_provider.scenario = Scenario(first_token_delay=0.05, token_interval=0.005, tokens=5)
    again = stream_completion(params, KEY_VALUE)
    assert again.outcome == "success"
    assert again.connect_s is not None and fake_provider.peers[-1] != fake_provider.peers[-2]
