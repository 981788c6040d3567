"""`manage.py probe`: the built-in probe against one endpoint, nothing written, figures as a run would publish.

The request is the admin's default probe settings (an unsaved ProbeConfig), the timing is the probe's
own (firstparty.probe), and the summary uses the aggregation's definitions: percentiles by
`aggregation.percentile_cont` (PostgreSQL's percentile_cont) over the requests that completed,
success rate over every request.
"""

from concurrent.futures import ThreadPoolExecutor

from .aggregation import COMPLETED, FAILED, percentile_cont
from .http_client import pooled_client
from .models import ProbeConfig
from .probe import stream_completion

PERCENTILES = (("median", 0.5), ("p95", 0.95), ("p99", 0.99))


def check_parameters(base_url, model, key_env, max_tokens=256, timeout_seconds=20.0):
    """The frozen-request dict a run would record for these settings (the key's variable name only)."""
    return ProbeConfig(base_url=base_url, api_model_id=model, api_key_env=key_env, max_tokens=max_tokens,
                       timeout_seconds=timeout_seconds).request_parameters()


def run_check(params, api_key, requests=10, concurrency=1, transport=None):
    """Send `requests` probes, at most `concurrency` at a time, over one pooled client built beforehand.
    Returns the ProbeResults in the order they were sent."""
    client = pooled_client(transport)
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        futures = [pool.submit(stream_completion, params, api_key, client=client) for _ in range(requests)]
        return [future.result() for future in futures]


def request_row(result):
    return {
        "started_at": result.started_at.isoformat(), "outcome": result.outcome, "ttft_s": result.ttft_s,
        "e2e_s": result.e2e_s, "output_tokens": result.output_tokens, "token_count": result.token_count,
        "tokens_per_second": result.tokens_per_second, "connect_s": result.connect_s,
        "http_status": result.http_status, "error": result.error,
    }


def summary(results):
    completed = [r for r in results if r.outcome in COMPLETED]
    speeds = [r.tokens_per_second for r in completed if r.tokens_per_second is not None]
    connects = [r.connect_s for r in results if r.connect_s is not None]
    outcomes = {}
    for result in results:
        outcomes[result.outcome] = outcomes.get(result.outcome, 0) + 1
    total = len(results)
    return {
        "requests": total,
        "completed": len(completed),
        "outcomes": dict(sorted(outcomes.items())),
        "success_rate_percent": 100.0 * outcomes.get("success", 0) / total if total else None,
        "failure_rate_percent": 100.0 * sum(outcomes.get(o, 0) for o in FAILED) / total if total else None,
        "ttft_s": {name: percentile_cont([r.ttft_s for r in completed], p) for name, p in PERCENTILES},
        "e2e_s": {name: percentile_cont([r.e2e_s for r in completed], p) for name, p in PERCENTILES},
        "tokens_per_second": {"median": percentile_cont(speeds, 0.5), "p5": percentile_cont(speeds, 0.05)},
        "connections_opened": len(connects),
        "connect_s": {"median": percentile_cont(connects, 0.5), "max": max(connects) if connects else None},
    }


def report(params, results, concurrency):
    return {
        "base_url": params["base_url"], "model": params["model"], "concurrency": concurrency,
        "max_tokens": params["max_tokens"], "timeout_seconds": params["timeout_seconds"],
        "timing": "from the request leaving (connection open) to the first content token / the end of the "
                  "stream; connect_s is a newly opened connection's DNS+TCP+TLS, not included",
        "requests": [request_row(r) for r in results],
        "summary": summary(results),
    }


def _seconds(value):
    return "-" if value is None else f"{value:.3f} s"


def _number(value, digits=1):
    return "-" if value is None else f"{value:.{digits}f}"


def summary_lines(result):
    s = result["summary"]
    outcomes = ", ".join(f"{name} {count}" for name, count in s["outcomes"].items())
    lines = [
        f"{s['requests']} requests to {result['base_url']} (model {result['model']}), concurrency "
        f"{result['concurrency']}: {outcomes}",
        f"success rate {_number(s['success_rate_percent'])} %, failure rate {_number(s['failure_rate_percent'])} %",
        "TTFT        median {median}  p95 {p95}  p99 {p99}".format(**{k: _seconds(v) for k, v in s["ttft_s"].items()}),
        "end-to-end  median {median}  p95 {p95}  p99 {p99}".format(**{k: _seconds(v) for k, v in s["e2e_s"].items()}),
        f"tokens/s    median {_number(s['tokens_per_second']['median'])}  "
        f"p5 {_number(s['tokens_per_second']['p5'])}  (over {s['completed']} completed requests)",
        f"connections opened {s['connections_opened']} (set-up median {_seconds(s['connect_s']['median'])}, "
        "not included in TTFT or end-to-end)",
    ]
    errors = sorted({r["error"] for r in result["requests"] if r["error"]})
    lines += [f"error: {error}" for error in errors[:10]]
    return lines
