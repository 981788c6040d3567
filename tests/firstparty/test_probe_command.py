"""`manage.py probe`: the operator's check of an endpoint before a run; it writes nothing."""

import json
import os
import statistics
import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from firstparty.models import RequestRecord
from tests.fake_openai import Scenario
from tests.firstparty_support import KEY_ENV, KEY_VALUE
from tests.worker_support import ROOT

MODEL = "acme/glm-5-3-flash"


def probe(base_url, *extra):
    out = StringIO()
    error = None
    try:
        call_command("probe", base_url, "--model", MODEL, "--key-env", KEY_ENV, *extra, stdout=out)
    except CommandError as exc:
        error = exc
    return out.getvalue(), error


def quantile(values, fraction):
    """Linear interpolation between the ranks around fraction × (n − 1), by the standard library."""
    if fraction == 0.5:
        return statistics.median(values)
    return statistics.quantiles(values, n=100, method="inclusive")[round(fraction * 100) - 1]


def fail_every_fourth(provider):
    """Requests 4, 8, 12 … get HTTP 503 (concurrency 1 keeps the order)."""
    good = provider.scenario

    def on_request(_handler):
        failing = len(provider.requests) % 4 == 0
        provider.scenario = Scenario(**{**good.__dict__, "status": 503 if failing else 200})

    provider.on_request = on_request


@pytest.mark.django_db
def test_json_report_per_request_and_summary(fake_provider, api_key, django_assert_num_queries):
    fake_provider.scenario = Scenario(first_token_delay=0.05, token_interval=0.004, tokens=11)
    fail_every_fourth(fake_provider)
    with django_assert_num_queries(0):
        output, error = probe(fake_provider.base_url, "--requests", "12", "--max-tokens", "64", "--json")

    result = json.loads(output)
    rows = result["requests"]
    assert len(rows) == 12 == len(fake_provider.requests)
    assert [r["outcome"] for r in rows] == ["success", "success", "success", "http_error"] * 3
    assert all(set(r) >= {"ttft_s", "e2e_s", "output_tokens", "outcome"} for r in rows)
    completed = [r for r in rows if r["outcome"] == "success"]
    assert all(0.05 <= r["ttft_s"] < r["e2e_s"] and r["output_tokens"] == 11 for r in completed)
    assert all(r["ttft_s"] is None and r["http_status"] == 503 for r in rows if r["outcome"] == "http_error")

    s = result["summary"]
    ttfts = [r["ttft_s"] for r in completed]
    ends = [r["e2e_s"] for r in completed]
    speeds = [(r["output_tokens"] - 1) / (r["e2e_s"] - r["ttft_s"]) for r in completed]
    for name, fraction in (("median", 0.5), ("p95", 0.95), ("p99", 0.99)):
        assert s["ttft_s"][name] == pytest.approx(quantile(ttfts, fraction), rel=1e-9)
        assert s["e2e_s"][name] == pytest.approx(quantile(ends, fraction), rel=1e-9)
    assert s["tokens_per_second"]["median"] == pytest.approx(quantile(speeds, 0.5), rel=1e-9)
    assert s["tokens_per_second"]["p5"] == pytest.approx(quantile(speeds, 0.05), rel=1e-9)
    assert s["success_rate_percent"] == 75.0 and s["failure_rate_percent"] == 25.0 and s["completed"] == 9

    # failures make the check fail (exit status 1) after the report is printed
    assert error is not None and error.returncode == 1 and "25.0 % of the requests failed" in str(error)
    headers, body = fake_provider.requests[0]
    assert body["model"] == MODEL and body["max_tokens"] == 64 and body["stream"] is True
    assert headers["Authorization"] == f"Bearer {KEY_VALUE}"
    assert KEY_VALUE not in output
    assert not RequestRecord.objects.exists()


def test_concurrent_requests_share_one_pool(fake_provider, api_key):
    fake_provider.scenario = Scenario(first_token_delay=0.1, token_interval=0.002, tokens=5)
    output, error = probe(fake_provider.base_url, "--requests", "8", "--concurrency", "4", "--json")
    result = json.loads(output)
    assert error is None and result["summary"]["success_rate_percent"] == 100.0
    # four requests in flight at once: four connections, each opened (and measured) once, then reused
    assert len(set(fake_provider.peers)) == 4 == result["summary"]["connections_opened"]
    assert all(0.1 <= r["ttft_s"] < 0.2 for r in result["requests"])


def test_readable_summary(fake_provider, api_key):
    fake_provider.scenario = Scenario(first_token_delay=0.05, token_interval=0.004, tokens=11)
    output, error = probe(fake_provider.base_url, "--requests", "3")
    assert error is None
    assert f"3 requests to {fake_provider.base_url} (model {MODEL}), concurrency 1: success 3" in output
    assert "TTFT        median 0.05" in output and "tokens/s    median" in output
    assert "connections opened 1" in output


@pytest.mark.parametrize(("extra", "env", "message"), [
    ([], {}, f"The environment variable {KEY_ENV} is not set here; no request was sent."),
    (["--key-env", KEY_VALUE], {KEY_ENV: KEY_VALUE}, "not the key itself"),
])
def test_no_request_without_a_key_variable(fake_provider, monkeypatch, extra, env, message):
    monkeypatch.delenv(KEY_ENV, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    output, error = probe(fake_provider.base_url, *extra)
    assert error is not None and message in str(error)
    assert KEY_VALUE not in str(error)  # a key typed by mistake is not echoed
    assert fake_provider.requests == [] and output == ""


def test_the_command_prints_one_json_object_and_nothing_else(fake_provider):
    """As an operator runs it: a separate process; its logging goes to stderr, stdout is JSON only."""
    fake_provider.scenario = Scenario(first_token_delay=0.05, token_interval=0.004, tokens=11)
    env = {**os.environ, KEY_ENV: KEY_VALUE, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    done = subprocess.run(
        [sys.executable, "manage.py", "probe", fake_provider.base_url, "--model", MODEL, "--key-env", KEY_ENV,
         "--requests", "2", "--json"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [r["outcome"] for r in result["requests"]] == ["success", "success"]
    assert KEY_VALUE not in done.stdout + done.stderr
