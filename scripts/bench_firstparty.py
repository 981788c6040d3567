"""Measure first-party aggregation and import speed on PostgreSQL. Prints figures; asserts nothing.

    TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/llmbench_bench python scripts/bench_firstparty.py \
        [--endpoints 100] [--per-endpoint 10000] [--import-rows 1000000] [--keepdb]

Creates a scratch database (<name>_scratch), migrates it, then:
1. inserts endpoints × per-endpoint records (default 1,000,000) into one probe series with COPY;
2. aggregates them into 24-hour window percentiles per endpoint (one SQL query), timing it and counting
   queries, then writes the same window as a snapshot (aggregation + Measurement rows);
3. writes a JSONL file of --import-rows records to disk and imports it through the real importer in a child
   process (streamed read, gzip-compressed copy kept, every row checked, COPY in chunks), printing records/s
   and the child's peak resident memory; then sends the same rows, already formatted, with a plain COPY
   and prints the ratio of the two.
   scripts/bench_uploads.py measures the same import through the admin and a Celery worker.
Goals (issue 23): window percentiles <= 5 s; import >= 50,000 records/s and >= 0.3x the plain COPY;
peak memory <= 300 MB whatever the file's size.
"""

import argparse
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

    from firstparty.record_writer import copy_value as _copy_value

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


def write_import_file(path, endpoints, rows, rng):
    """A runner's JSONL file of `rows` records over 10 endpoints, written line by line (never whole in memory)."""
    count = 0
    with path.open("w") as handle:
        for endpoint_id, at, ttft, e2e, tokens, _tps, outcome in record_rows(endpoints[:10], rows // 10, rng):
            row = {"provider": f"bench-host-{endpoint_id - endpoints[0].pk:03d}", "model": "bench-model",
                   "started_at": at.isoformat(), "outcome": outcome}
            if ttft is not None:
                row.update(ttft_s=round(ttft, 4), e2e_s=round(e2e, 4), output_tokens=tokens, token_count="usage")
            elif outcome == "http_error":
                row["http_status"] = 503
            handle.write(json.dumps(row) + "\n")
            count += 1
    return count


def child_import(path, run_id):
    """In a child process: import the file into the run and print the import's own time as JSON."""
    from django.db import connection

    from firstparty.importers import import_records
    from firstparty.models import Run

    connection.settings_dict["NAME"] = os.environ["BENCH_SCRATCH_DB"]
    run = Run.objects.get(pk=int(run_id))
    start = time.perf_counter()
    with open(path, "rb") as handle:
        imported = import_records(run, handle, Path(path).name)
    print(json.dumps({"rows": imported.rows, "seconds": time.perf_counter() - start,
                      "stored_bytes": imported.stored.size}))


def plain_copy(path, run):
    """The same rows as COPY text (formatted beforehand, outside the timing), sent with one COPY."""
    from django.db import connection

    from firstparty.record_checks import RowChecker
    from firstparty.record_writer import RecordWriter

    checker, lines = RowChecker(), []
    writer = RecordWriter(run, None)
    writer._copy = True  # format only
    with open(path, "rb") as handle:
        for line in handle:
            writer.add(checker.check(json.loads(line)))
            lines.extend(writer._pending)
            writer._pending = []
    text = "\n".join(lines) + "\n"
    del lines
    from firstparty.record_writer import COPY_COLUMNS

    start = time.perf_counter()
    with connection.cursor() as cursor, cursor.copy(
        f"COPY firstparty_requestrecord ({', '.join(COPY_COLUMNS)}) FROM STDIN"
    ) as copy:
        for offset in range(0, len(text), 1 << 22):
            copy.write(text[offset:offset + (1 << 22)])
    return time.perf_counter() - start


def measure_import(args, endpoints, source, rng):
    import resource
    import subprocess
    import tempfile

    from django.db import connection

    from firstparty.models import Run

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.jsonl"
        rows = write_import_file(path, endpoints, args.import_rows, rng)
        run = Run.objects.create(name="bench import", source=source)
        env = {**os.environ, "BENCH_SCRATCH_DB": connection.settings_dict["NAME"]}
        load = " ".join(f"{x:.1f}" for x in os.getloadavg())
        done = subprocess.run([sys.executable, __file__, "--child-import", str(path), str(run.pk)], env=env,
                              capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"the importing process failed:\n{done.stderr[-3000:]}")
        result = json.loads(done.stdout.strip().splitlines()[-1])
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        rate = result["rows"] / result["seconds"]
        size = path.stat().st_size
        copy_seconds = plain_copy(path, Run.objects.create(name="bench plain copy", source=source))
    copy_rate = rows / copy_seconds
    print(f"import: {result['rows']:,} JSONL records ({size / 2**20:,.0f} MB; kept gzip-compressed: "
          f"{result['stored_bytes'] / 2**20:,.1f} MB) read, checked and inserted in {result['seconds']:.2f} s = "
          f"{rate:,.0f} records/s (goal ≥ 50,000: {'met' if rate >= 50_000 else 'NOT met'}; ratio {rate / 50_000:.2f}); "
          f"load average at the start {load}")
    print(f"plain COPY of the same rows, formatted beforehand: {copy_seconds:.2f} s = {copy_rate:,.0f} rows/s; "
          f"import / plain COPY = {rate / copy_rate:.2f} (goal ≥ 0.3: {'met' if rate / copy_rate >= 0.3 else 'NOT met'})")
    print(f"peak resident memory of the importing process: {peak / 2**20:,.0f} MB "
          f"(goal ≤ 300 MB: {'met' if peak <= 300 * 2**20 else 'NOT met'})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--endpoints", type=int, default=100)
    parser.add_argument("--per-endpoint", type=int, default=10_000)
    parser.add_argument("--import-rows", type=int, default=1_000_000)
    parser.add_argument("--child-import", nargs=2, metavar=("FILE", "RUN"), help=argparse.SUPPRESS)
    parser.add_argument("--keepdb", action="store_true", help="reuse the scratch database if it exists")
    args = parser.parse_args()

    import django

    django.setup()
    if args.child_import:
        return child_import(*args.child_import)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if connection.vendor != "postgresql":
        sys.exit("This benchmark needs PostgreSQL (set TEST_DATABASE_URL).")
    old_name = connection.settings_dict["NAME"]
    connection.settings_dict["TEST"]["NAME"] = f"{old_name}_scratch"
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=args.keepdb)
    try:
        from benchmarks.models import Source
        from firstparty.aggregation import aggregate_series_period, figures_for_window
        from firstparty.models import RequestRecord, Series

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

        measure_import(args, endpoints, source, rng)
    finally:
        if not args.keepdb:
            connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
