"""Per-request records for the demo's GLM-5.3-Flash run, built so that aggregation reproduces the
scorecard's published figures (method in docs/first-party-runs.md, "Demo records").

The published run only gives aggregates, so the 600 requests per provider are synthesised,
deterministically (a seeded random generator per provider):

1. Outcome counts come from the rates: successes = round(600 × task success %), failures = round(600 ×
   failure rate %) split over HTTP 429/503, timeouts and malformed streams; the rest are wrong answers.
2. The n completed requests get sorted tokens/s and TTFT columns whose ranks around each published
   percentile (p5 and p50 of tokens/s, p50 and p95 of TTFT) hold exactly the published value; the other
   ranks are spread smoothly between them, so `percentile_cont` (which interpolates between the two
   nearest ranks) returns the published value.
3. End-to-end time is TTFT + (tokens - 1) / tokens-per-second, so every record is consistent with the
   tokens/s definition. The few ranks around p99 get a TTFT chosen so that their end-to-end time is exactly
   the published p99; three requests are slower than it and all others faster.
"""

import random
from datetime import timedelta
from fractions import Fraction
from math import floor

from .models import RequestRecord

MAX_TOKENS = 256
TIMEOUT = 20.0
FAILURE_KINDS = [("http_error", 429), ("http_error", 503), ("timeout", None), ("malformed", None)]


def anchor_ranks(n, fraction):
    """Ranks that must equal the target so that percentile_cont(fraction) returns it, with a margin of one
    rank each side against floating-point rounding of fraction × (n - 1)."""
    position = Fraction(fraction) * (n - 1)
    low = floor(position)
    return range(max(0, low - 1), min(n, low + 3))


def _spread(low, high, count, curve=1.0):
    """count values strictly between low and high, denser towards low when curve > 1."""
    return [low + (high - low) * ((i + 1) / (count + 1)) ** curve for i in range(count)]


def sorted_column(n, anchors, minimum, maximum):
    """n ascending values; `anchors` [(fraction, value)] ascending, each held at its anchor ranks."""
    column = [None] * n
    bands, previous_end, previous_value = [], 0, minimum
    for fraction, value in anchors:
        ranks = anchor_ranks(n, fraction)
        for rank in ranks:
            column[rank] = value
        bands.append((previous_end, ranks.start, previous_value, value))
        previous_end, previous_value = ranks.stop, value
    bands.append((previous_end, n, previous_value, maximum))
    for start, stop, low, high in bands:
        for rank, value in zip(range(start, stop), _spread(low, high, stop - start), strict=True):
            column[rank] = value
    return column, bands


def _band_fill(bands, column):
    return [[column[rank] for rank in range(start, stop)] for start, stop, _low, _high in bands]


def _solve_tokens(target_e2e, speed, f_low, f_high):
    """Output tokens (2..256) and a TTFT in (f_low, f_high) with TTFT + (tokens-1)/speed == target_e2e."""
    best = None
    for tokens in range(MAX_TOKENS, 1, -1):
        ttft = target_e2e - (tokens - 1) / speed
        if f_low < ttft < f_high:
            middle = (f_low + f_high) / 2
            if best is None or abs(ttft - middle) < abs(best[1] - middle):
                best = (tokens, ttft)
    return best


def endpoint_records(endpoint, run, seed, ttft_median, e2e_p99, ttft_p95, tps_floor, tps_median,
                     task_success, failure_rate, started, spacing, requests=600, region="", token_count=""):
    rng = random.Random(seed)
    successes = round(requests * task_success / 100)
    failures = round(requests * failure_rate / 100)
    n = requests - failures
    wrong = n - successes
    if wrong < 0:
        raise ValueError(f"{endpoint}: success and failure rates exceed 100%")

    speeds, _speed_bands = sorted_column(n, [(Fraction(5, 100), tps_floor), (Fraction(1, 2), tps_median)],
                                         tps_floor * 0.55, tps_median * 1.3)
    ttft_cap = min(ttft_p95 * 1.25, e2e_p99 * 0.8)
    ttfts, ttft_bands = sorted_column(n, [(Fraction(1, 2), ttft_median), (Fraction(95, 100), ttft_p95)],
                                      ttft_median * 0.45, ttft_cap)
    fill = _band_fill(ttft_bands, ttfts)  # non-anchor TTFTs per band: below median, median..p95, above p95
    limits = [(low, high) for _s, _e, low, high in ttft_bands]
    limits[2] = (ttft_p95, TIMEOUT - 1)  # the slow tail may start later than the smooth fill does

    e2e_ranks = anchor_ranks(n, Fraction(99, 100))
    slow = n - e2e_ranks.stop
    speed_pool = sorted(speeds)
    rows = []  # (ttft, tokens, speed)

    def special(target):
        for speed in list(speed_pool):
            for band in (1, 0, 2):
                solved = _solve_tokens(target, speed, *limits[band])
                if solved and fill[band]:
                    speed_pool.remove(speed)
                    fill[band].pop(rng.randrange(len(fill[band])))
                    return solved[1], solved[0], speed
        raise ValueError(f"{endpoint}: no consistent request reaches {target:.3f} s")

    for _ in e2e_ranks:
        rows.append(special(e2e_p99))
    for i in range(slow):
        rows.append(special(min(e2e_p99 * (1.03 + 0.02 * i), TIMEOUT - 0.5)))
    rest_ttfts = [value for band in fill for value in band] + [ttft_median] * len(anchor_ranks(n, Fraction(1, 2))) \
        + [ttft_p95] * len(anchor_ranks(n, Fraction(95, 100)))
    rng.shuffle(rest_ttfts)
    rng.shuffle(speed_pool)
    ceiling = e2e_p99 * 0.97
    for ttft, speed in zip(rest_ttfts, speed_pool, strict=True):
        tokens = min(rng.randint(110, 230), floor((ceiling - ttft) * speed) + 1)
        if tokens < 2:
            raise ValueError(f"{endpoint}: a fast request cannot finish before the p99")
        rows.append((ttft, tokens, speed))
    rng.shuffle(rows)

    outcomes = ["wrong_answer"] * wrong + ["success"] * successes
    rng.shuffle(outcomes)
    failed = [FAILURE_KINDS[i % len(FAILURE_KINDS)] for i in range(failures)]
    slots = ["done"] * n + ["failed"] * failures
    rng.shuffle(slots)
    records, done_iter, failed_iter, outcome_iter = [], iter(rows), iter(failed), iter(outcomes)
    for i, slot in enumerate(slots):
        at = started + i * spacing
        if slot == "done":
            ttft, tokens, speed = next(done_iter)
            e2e = ttft + (tokens - 1) / speed
            record = RequestRecord(endpoint=endpoint, run=run, started_at=at, region=region, ttft_s=ttft, e2e_s=e2e,
                                   output_tokens=tokens, token_count=token_count, outcome=next(outcome_iter))
        else:
            kind, status = next(failed_iter)
            error = {"http_error": f"HTTP {status}", "timeout": f"no complete answer within {TIMEOUT:.0f} s",
                     "malformed": "stream ended without [DONE]"}[kind]
            record = RequestRecord(endpoint=endpoint, run=run, started_at=at, region=region, outcome=kind,
                                   http_status=status, error=error, token_count=token_count)
        records.append(record.derive())
    return records


def demo_run_records(run, endpoints, rows, window_start, window_end, requests=600):
    """Records of every endpoint; rows are (provider slug, ..., figures as strings) like RUN_ROWS."""
    spacing = (window_end - window_start) / requests
    records = []
    for index, (endpoint, row) in enumerate(zip(endpoints, rows, strict=True)):
        figures = [float(value) for value in row[3:]]
        ttft_median, e2e_p99, ttft_p95, tps_floor, tps_median, success, failure = figures
        records += endpoint_records(
            endpoint, run, f"glm-5-3-flash/{row[0]}", ttft_median, e2e_p99, ttft_p95, tps_floor, tps_median,
            success, failure, window_start + timedelta(seconds=index), spacing, requests=requests,
            region="demo", token_count="tokenizer:o200k_base",
        )
    return records


def load_demo_run(source, endpoints, rows, measured_at, window_start, **meta):
    """The demo run as records, aggregated into the source's snapshot. Idempotent: a second call finds the run."""
    from .aggregation import aggregate_run
    from .models import Run

    name = f"{source.title} (demo records)"
    run = Run.objects.filter(source=source, name=name).first()
    if run and run.snapshot_id:
        return run, False
    run = run or Run.objects.create(
        name=name, source=source, requests_per_endpoint=600, tokenizer="tiktoken o200k_base",
        status=Run.Status.FINISHED, started_at=window_start, finished_at=measured_at, measured_at=measured_at, **meta,
    )
    run.endpoints.set(endpoints)
    run.config = {
        "requests_per_endpoint": 600, "tokenizer": run.tokenizer,
        "endpoints": {str(e.pk): {
            "model": e.api_model_id, "json_mode": True, "max_tokens": MAX_TOKENS, "temperature": 0.0, "top_p": 1.0,
            "reasoning_effort": "low", "timeout_seconds": TIMEOUT, "concurrency": 1, "stream": True,
        } for e in endpoints},
    }
    run.save()
    run.records.all().delete()
    RequestRecord.objects.bulk_create(demo_run_records(run, endpoints, rows, window_start, measured_at), batch_size=2000)
    aggregate_run(run)
    run.refresh_from_db()
    return run, True
