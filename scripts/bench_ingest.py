"""Ingest benchmark (issue 16): `import_snapshot` rows/s vs a COPY of the same rows, in one run.

    python scripts/bench_ingest.py [--rows 20000] [--database-url URL] [--profile]

Standalone: builds its own PostgreSQL database (--database-url, default postgres://postgres@
127.0.0.1:5432/llmbench_ingest_bench; dropped and re-created) under the production settings, migrates,
creates a catalogue (one model served by one endpoint on each of rows/9 hosts) and a CSV of nine
metrics per endpoint. Then it times:

- `manage.py import_snapshot` on that file end to end (read, check, write, commit), as an editor runs it:
  a first import, then the median of three more (other values, so other files) in the same process,
  which is what a long-running worker or web process pays;
- a COPY of the same rows into the same table, the fastest plain way we know: the rows preformatted
  as COPY text before the clock starts and sent in one write, committed. Anything our import does
  beyond that is its own cost, so the ratio is not flattered by a slow baseline.

Then, from the shell as an operator runs them (issue 28), `manage.py import_snapshot` of a
--command-line-rows file in a new process against `psql \\copy` of the same rows, in interleaved rounds
with the load average printed (command_line_rounds).

Prints rows/s for both, the ratio and whether each goal is met; asserts nothing. scripts/bench_serving.py
calls `ingest()` for its figure 4. --profile prints where the import spends its time (cProfile).
Redis: --redis-url (default REDIS_URL or redis://127.0.0.1:6379/0); only this run's keys (own prefix) are deleted.
"""

import argparse
import cProfile
import io
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_env import DEFAULT_REDIS_URL, clear_own_keys, configure, recreate_database  # noqa: E402

GOAL_RATE = 50_000  # rows/s
GOAL_RATIO = 0.2  # of the COPY's rows/s
GOAL_COMMAND_LINE_RATIO = 0.5  # `manage.py import_snapshot` vs `psql \copy`, both from the shell (issue 28)
METRICS = ["output_speed_median", "ttfc_median", "ttft_median", "ttft_p95", "tps_p95", "e2e_median", "e2e_p99",
           "task_success", "failure_rate"]


def make_catalogue(rows_wanted, name="bench"):
    """A model with one endpoint on each of rows_wanted/9 hosts, a source; the CSV lines naming them."""
    from benchmarks.models import Endpoint, LanguageModel, Provider, Source

    count = max(1, rows_wanted // len(METRICS))
    model = LanguageModel.objects.create(name=f"{name.title()} model", slug=f"{name}-model")
    providers = Provider.objects.bulk_create(
        [Provider(name=f"{name.title()} host {n}", slug=f"{name}-host-{n}") for n in range(count)], batch_size=1000
    )
    Endpoint.objects.bulk_create([Endpoint(provider=p, model=model) for p in providers], batch_size=1000)
    lines = ["provider,model,tier,metric,value"]
    for n in range(count):
        for k, metric in enumerate(METRICS):
            lines.append(f"{name}-host-{n},{name}-model,,{metric},{(n % 90) + 1 + k / 10:.1f}")
    source = Source.objects.create(title=f"{name.title()} ingest", publisher="Bench", url="https://bench.invalid/")
    endpoints = dict(Endpoint.objects.filter(model=model).values_list("provider__slug", "pk"))
    return lines, endpoints, source


def time_import(path, source, profile=False, moment="2026-01-01T00:00:00Z"):
    from django.core.management import call_command

    profiler = cProfile.Profile() if profile else None
    start = time.perf_counter()
    if profiler:
        profiler.enable()
    call_command("import_snapshot", path, source=str(source.pk), measured_at=moment,
                 verbosity=0, stdout=open(os.devnull, "w"))
    if profiler:
        profiler.disable()
    seconds = time.perf_counter() - start
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(45)
        print(out.getvalue())
    return seconds


def time_copy(lines, endpoints, source):
    """COPY of the rows of `lines` into a fresh draft snapshot: the same table, indexes and triggers."""
    from django.db import connection

    from benchmarks.models import Snapshot

    target = Snapshot.objects.create(source=source, measured_at="2026-02-01T00:00:00Z")
    payload = []
    for line in lines[1:]:
        provider, _model, _tier, metric, value = line.split(",")
        payload.append(f"{target.pk}\t{endpoints[provider]}\t{metric}\t{value}\n")
    data = "".join(payload).encode()
    start = time.perf_counter()
    with connection.cursor() as cursor:  # autocommit: the COPY is its own transaction, commit included
        with cursor.copy("COPY benchmarks_measurement (snapshot_id, endpoint_id, metric, value) FROM STDIN") as copy:
            copy.write(data)
    seconds = time.perf_counter() - start
    assert Snapshot.objects.get(pk=target.pk).measurements.count() == len(lines) - 1
    return seconds


def write_csv(lines, shift=0):
    """The file of `lines`, each value raised by `shift` (another file: an import of the same bytes is a no-op)."""
    body = lines if not shift else [lines[0]] + [
        f"{line.rsplit(',', 1)[0]},{float(line.rsplit(',', 1)[1]) + shift:.1f}" for line in lines[1:]
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as handle:
        handle.write("\n".join(body) + "\n")
    return handle.name


def ingest(rows_wanted, profile=False, repeats=3):
    """(rows, import_snapshot rows/s, COPY rows/s, first import's rows/s) on the current database.

    The first import in a fresh process also pays one-off costs (module imports, query compilation,
    the content-type cache) that a worker or web process pays once; the figure is the median of
    `repeats` imports after it, each of a different file into its own snapshot. The first one is
    returned as well, so the bench can print it."""
    from statistics import median

    from benchmarks.models import Snapshot

    lines, endpoints, source = make_catalogue(rows_wanted)
    rows = len(lines) - 1
    rates = []
    for attempt in range(1 + repeats):
        path = write_csv(lines, shift=attempt)
        try:
            seconds = time_import(path, source, profile and attempt == 1, moment=f"2026-01-{attempt + 1:02d}T00:00:00Z")
        finally:
            os.unlink(path)
        rates.append(rows / seconds)
    for imported in Snapshot.objects.filter(source=source):
        assert imported.measurements.count() == rows, "the import did not write every row"
    copy_seconds = time_copy(lines, endpoints, source)
    return rows, median(rates[1:]), rows / copy_seconds, rates[0]


def command_line_rounds(lines, endpoints, source, rounds=3):
    """(import seconds, \\copy seconds, load averages) of `rounds` interleaved rounds, from the shell.

    What an operator runs: `manage.py import_snapshot file.csv` in a new process (start-up, checks,
    write, commit) against `psql -c "\\copy … FROM file"` of the same rows (endpoint ids already
    resolved, into a draft snapshot made beforehand). Interleaved, so a busy moment of a shared
    machine weighs on both alike."""
    import subprocess

    from django.conf import settings

    from benchmarks.models import Snapshot

    database = settings.DATABASES["default"]
    url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    root = Path(__file__).resolve().parent.parent
    imports, copies, loads = [], [], []
    for attempt in range(rounds):
        csv_path = write_csv(lines, shift=0.1 * (attempt + 1))  # a file of its own each round, values still valid
        target = Snapshot.objects.create(source=source, measured_at=f"2026-03-{attempt + 1:02d}T00:00:00Z")
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as handle:
            for line in lines[1:]:
                provider, _model, _tier, metric, value = line.split(",")
                handle.write(f"{target.pk}\t{endpoints[provider]}\t{metric}\t{value}\n")
        try:
            loads.append(os.getloadavg()[0])
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, str(root / "manage.py"), "import_snapshot", csv_path, "--source", str(source.pk),
                 "--measured-at", f"2026-04-{attempt + 1:02d}T00:00:00Z", "-v", "0"],
                check=True, cwd=root, stdout=subprocess.DEVNULL,
                # 200,000 rows are a 9 MB file, above the 5 MB default an operator raises for such a file.
                env={**os.environ, "IMPORT_MAX_BYTES": str(64 * 1024 * 1024)},
            )
            imports.append(time.perf_counter() - start)
            start = time.perf_counter()
            subprocess.run(
                ["psql", url, "-q", "-v", "ON_ERROR_STOP=1", "-c",
                 f"\\copy benchmarks_measurement (snapshot_id, endpoint_id, metric, value) FROM '{handle.name}'"],
                check=True, stdout=subprocess.DEVNULL,
            )
            copies.append(time.perf_counter() - start)
        finally:
            os.unlink(csv_path)
            os.unlink(handle.name)
        assert target.measurements.count() == len(lines) - 1, "the \\copy did not write every row"
    return imports, copies, loads


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/llmbench_ingest_bench")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--rows", type=int, default=20000)
    parser.add_argument("--profile", action="store_true", help="print the import's cProfile (slows it down)")
    parser.add_argument("--command-line-rows", type=int, default=200_000,
                        help="rows of the shell comparison (import_snapshot vs psql \\copy); 0 skips it")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the shell comparison")
    args = parser.parse_args()
    configure(args)
    recreate_database(args.database_url)
    import django

    django.setup()
    from django.core.management import call_command

    clear_own_keys()
    call_command("migrate", interactive=False, verbosity=0, stdout=open(os.devnull, "w"))
    rows, import_rate, copy_rate, first_rate = ingest(args.rows, args.profile)
    ratio = import_rate / copy_rate
    print(f"Ingest of {rows:,} measurements: import_snapshot {import_rate:,.0f} rows/s (median of 3 after a first "
          f"import at {first_rate:,.0f} rows/s), COPY {copy_rate:,.0f} rows/s: ratio {ratio:.2f}x")
    print(f"  >= {GOAL_RATE:,} rows/s: {'met' if import_rate >= GOAL_RATE else 'NOT met'}; "
          f">= {GOAL_RATIO}x COPY: {'met' if ratio >= GOAL_RATIO else 'NOT met'}")
    if args.command_line_rows:
        command_line(args.command_line_rows, args.rounds)


def command_line(rows_wanted, rounds):
    from statistics import median

    lines, endpoints, source = make_catalogue(rows_wanted, name="shell")
    imports, copies, loads = command_line_rounds(lines, endpoints, source, rounds)
    rows = len(lines) - 1
    ratio = median(copies) / median(imports)
    print(f"From the shell, {rows:,} rows, {rounds} interleaved rounds (load average {min(loads):.1f}–{max(loads):.1f} "
          f"on {os.cpu_count()} CPUs): manage.py import_snapshot {median(imports):.2f} s "
          f"({', '.join(f'{t:.2f}' for t in imports)}), psql \\copy {median(copies):.2f} s "
          f"({', '.join(f'{t:.2f}' for t in copies)}): ratio {ratio:.2f}x; "
          f">= {GOAL_COMMAND_LINE_RATIO}x: {'met' if ratio >= GOAL_COMMAND_LINE_RATIO else 'NOT met'}")


if __name__ == "__main__":
    main()
