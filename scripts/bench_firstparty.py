"""Measure first-party aggregation and import speed on PostgreSQL. Prints figures; asserts nothing.

    TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/llmbench python scripts/bench_firstparty.py \
        [--endpoints 100] [--per-endpoint 10000] [--import-rows 200000] [--keepdb]

Creates a scratch database (test_<name>, like the test runner), migrates it, then:
1. inserts endpoints × per-endpoint records (default 1,000,000) into one probe series with COPY;
2. aggregates them into 24-hour window percentiles per endpoint (one SQL query), timing it and counting
   queries, then writes the same window as a snapshot (aggregation + Measurement rows);
3. imports a generated JSONL file of --import-rows rows through the real importer (streamed read, check
   every row, COPY in chunks; the file is kept in the uploads storage) and prints rows per second.
   scripts/bench_uploads.py measures the same import through the admin and a Celery worker, with memory.
Goals from issue 14: aggregation <= 5 s, import >= 20,000 rows/s.
"""

import argparse
import io
import json
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

END = datetime(2026, 9, 4, 0, 0, tzinfo=UTC)


def make_endpoints(count):
    from benchmarks.models import Endpoint, LanguageModel, Provider

    model = LanguageModel.objects.create(name="Bench model", slug="bench-model")
    providers = Provider.objects.bulk_create(
        [Provider(name=f"Bench host {i:03d}", slug=f"bench-host-{i:03d}") for i in range(count)]
    )
    return Endpoint.objects.bulk_create([Endpoint(provider=p, model=model, api_model_id="bench") for p in providers])


def record_rows(endpoints, per_endpoint, rng):
    """(endpoint id, started_at, ttft, e2e, tokens, tokens/s, outcome) spread over the last 24 hours."""
    from firstparty.models import tokens_per_second

    step = timedelta(hours=24) / per_endpoint
    for endpoint in endpoints:
        for i in range(per_endpoint):
            roll = rng.random()
            at = END - timedelta(hours=24) + i * step
            if roll < 0.03:
                yield endpoint.pk, at, None, None, None, None, "timeout" if roll < 0.01 else "http_error"
                continue
            ttft = rng.lognormvariate(-0.5, 0.6)
            tokens = rng.randint(60, 256)
            e2e = ttft + (tokens - 1) / rng.uniform(20, 400)
            yield endpoint.pk, at, ttft, e2e, tokens, tokens_per_second(tokens, ttft, e2e), \
                "wrong_answer" if roll > 0.98 else "success"


def copy_series_records(series, rows):
    from django.db import connection

    from firstparty.importers import _copy_value

    columns = "series_id, endpoint_id, started_at, region, ttft_s, e2e_s, output_tokens, token_count, " \
              "tokens_per_second, outcome, error"
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY firstparty_requestrecord ({columns}) FROM STDIN") as copy:
            lines = []
            for endpoint_id, at, ttft, e2e, tokens, tps, outcome in rows:
                values = (series.pk, endpoint_id, at, "bench", ttft, e2e, tokens, "usage", tps, outcome, "")
                lines.append("\t".join(map(_copy_value, values)))
                if len(lines) == 50_000:
                    copy.write("\n".join(lines) + "\n")
                    lines = []
            if lines:
                copy.write("\n".join(lines) + "\n")
        cursor.execute("ANALYZE firstparty_requestrecord")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--endpoints", type=int, default=100)
    parser.add_argument("--per-endpoint", type=int, default=10_000)
    parser.add_argument("--import-rows", type=int, default=200_000)
    parser.add_argument("--keepdb", action="store_true", help="reuse the scratch database if it exists")
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if connection.vendor != "postgresql":
        sys.exit("This benchmark needs PostgreSQL (set TEST_DATABASE_URL).")
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=args.keepdb)
    try:
        from benchmarks.models import Source
        from firstparty.aggregation import aggregate_series_period, figures_for_window
        from firstparty.importers import import_records, read_rows
        from firstparty.models import RequestRecord, Run, Series
        from firstparty.record_checks import RowChecker

        RequestRecord.objects.all().delete()
        rng = random.Random(14)
        endpoints = make_endpoints(args.endpoints)
        source = Source.objects.create(title="bench", publisher="bench", url="https://example.org/bench",
                                       kind="first_party")
        series = Series.objects.create(name="bench", source=source)
        total = args.endpoints * args.per_endpoint
        print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs "
              "(figures scale with how busy the machine is)")

        start = time.perf_counter()
        copy_series_records(series, record_rows(endpoints, args.per_endpoint, rng))
        loaded = time.perf_counter() - start
        print(f"loaded {total:,} records with COPY in {loaded:.1f} s ({total / loaded:,.0f} rows/s, incl. generation)")

        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            rows = figures_for_window(series, END - timedelta(hours=24), END)
            elapsed = time.perf_counter() - start
        print(f"window percentiles: {len(rows)} endpoints × 12 figures from {total:,} records in {elapsed:.2f} s, "
              f"{len(ctx.captured_queries)} query (goal ≤ 5 s: {'met' if elapsed <= 5 else 'NOT met'}; "
              f"ratio to goal {elapsed / 5:.2f})")
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            aggregate_series_period(series, END)
            elapsed = time.perf_counter() - start
        print(f"same window written as a snapshot ({len(rows) * 12} measurements): {elapsed:.2f} s, "
              f"{len(ctx.captured_queries)} queries")

        run = Run.objects.create(name="bench import", source=source)
        lines = []
        for endpoint_id, at, ttft, e2e, tokens, _tps, outcome in record_rows(
            endpoints[:10], args.import_rows // 10, rng
        ):
            row = {"provider": f"bench-host-{endpoint_id - endpoints[0].pk:03d}", "model": "bench-model",
                   "started_at": at.isoformat(), "outcome": outcome}
            if ttft is not None:
                row.update(ttft_s=round(ttft, 4), e2e_s=round(e2e, 4), output_tokens=tokens, token_count="usage")
            elif outcome == "http_error":
                row["http_status"] = 503
            lines.append(json.dumps(row))
        raw = "\n".join(lines).encode()
        start = time.perf_counter()
        checker = RowChecker()
        for _number, row in read_rows(io.BytesIO(raw), "bench.jsonl"):
            checker.check(row)
        parse_time = time.perf_counter() - start
        start = time.perf_counter()
        imported = import_records(run, raw, "bench.jsonl")
        elapsed = time.perf_counter() - start
        rate = imported.rows / elapsed
        print(f"import: {imported.rows:,} JSONL rows checked and inserted in {elapsed:.2f} s = {rate:,.0f} rows/s "
              f"(goal ≥ 20,000: {'met' if rate >= 20_000 else 'NOT met'}; ratio {rate / 20_000:.2f}); "
              f"reading and checking alone: {parse_time:.2f} s")
    finally:
        if not args.keepdb:
            connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
