"""Upload benchmark (issue 22): a records file through the admin as production runs it, measured end to end.

    python scripts/bench_uploads.py [--records 1000000] [--limit-file | --no-limit-file] [--snapshot]
        [--database-url URL] [--redis-url URL] [--broker-url URL] [--port 0]

Standalone: builds its own PostgreSQL database (default postgres://postgres@127.0.0.1:5432/
llmbench_uploads_bench; dropped and re-created) under the production settings, starts gunicorn with the
README's command (sync workers, 30 s timeout) and a Celery worker (solo pool: the task runs in the process
whose memory is read), logs in, and for each file:

- POSTs it to a run's "Upload records" page, streamed from disk, and times how long the request held a
  gunicorn worker (the upload is on loopback: this is the server's own share, not a slow client's);
- follows the upload's JSON status, as the progress page does, until the worker has imported it;
- prints rows/s of the import (from the task's start to its end) and the peak resident memory (VmHWM)
  of the worker process and of the gunicorn workers, against the goal of <= 300 MB.

Files: a CSV of --records records, and (--limit-file, on by default) a JSONL file just under
RECORDS_UPLOAD_MAX_BYTES (200 MB). --snapshot also uploads a snapshot CSV just under IMPORT_MAX_BYTES.
Each file gets a fresh worker, so each peak is that file's. Prints figures; asserts nothing. Redis: the
cache (--redis-url; keys under a prefix of the run's own) and the broker (--broker-url) are not flushed.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_env import DEFAULT_REDIS_URL, ROOT, configure, recreate_database, start_gunicorn  # noqa: E402

GOAL_BYTES = 300 * 1024 * 1024
PROVIDERS = 10
CSRF_SECRET = "benchuploads" * 2 + "abcdefgh"  # 32 characters, like Django's own secrets
CSV_HEADER = "provider,model,started_at,outcome,ttft_s,e2e_s,output_tokens,token_count,region\n"


def peak_rss(pid):
    """VmHWM (peak resident set) of a process, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def children(pid):
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def mb(value):
    return f"{value / 2**20:,.0f} MB"


def record_values(rng, n):
    start = datetime(2026, 9, 3, tzinfo=UTC)
    ttft = round(rng.lognormvariate(-0.5, 0.6), 4)
    tokens = rng.randint(60, 256)
    return (f"bench-records-host-{n % PROVIDERS}", "bench-records-model",
            (start + timedelta(milliseconds=250 * n)).isoformat(), ttft, round(ttft + (tokens - 1) / rng.uniform(20, 400), 4), tokens)


def write_csv(path, count):
    rng = random.Random(22)
    with path.open("w") as handle:
        handle.write(CSV_HEADER)
        for n in range(count):
            provider, model, at, ttft, e2e, tokens = record_values(rng, n)
            handle.write(f"{provider},{model},{at},success,{ttft},{e2e},{tokens},usage,bench\n")
    return count


def write_jsonl_up_to(path, limit):
    rng, rows, size = random.Random(23), 0, 0
    with path.open("w") as handle:
        while True:
            provider, model, at, ttft, e2e, tokens = record_values(rng, rows)
            line = json.dumps({"provider": provider, "model": model, "started_at": at, "outcome": "success",
                               "ttft_s": ttft, "e2e_s": e2e, "output_tokens": tokens, "token_count": "usage",
                               "region": "bench", "error": ""}) + "\n"
            if size + len(line) > limit:
                return rows
            handle.write(line)
            size += len(line)
            rows += 1


def setup():
    from django.contrib.auth import get_user_model
    from django.test import Client

    from benchmarks.models import Endpoint, LanguageModel, Provider, Source

    model = LanguageModel.objects.create(name="Bench records model", slug="bench-records-model")
    for n in range(PROVIDERS):
        provider = Provider.objects.create(name=f"Bench records host {n}", slug=f"bench-records-host-{n}")
        Endpoint.objects.create(provider=provider, model=model)
    source = Source.objects.create(title="Bench uploads", publisher="Bench", url="https://bench.invalid/uploads",
                                   kind="first_party")
    user = get_user_model().objects.create_superuser("bench", "bench@example.com", "bench-" + "pw" * 10)
    client = Client()
    client.force_login(user)  # a session in the database, sent to gunicorn as a cookie
    return source, client.cookies["sessionid"].value


class Worker:
    """A Celery worker (solo pool) for one file: its peak memory is that file's import."""

    def __enter__(self):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "celery", "--pool=solo",
             "--without-gossip", "--without-mingle", "-l", "warning"],
            cwd=ROOT, env=os.environ.copy(), stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        )
        time.sleep(6)  # Django and Celery loaded, connected to the broker
        self.idle = peak_rss(self.process.pid)
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=30)


def upload(http, url, path, fields):
    http.get(url).raise_for_status()  # the form, as a person opens it first
    start = time.perf_counter()
    with path.open("rb") as handle:  # httpx sends the file in blocks, as a browser does
        response = http.post(url, data={"csrfmiddlewaretoken": CSRF_SECRET, **fields},
                             files={"file": (path.name, handle, "application/octet-stream")})
    held = time.perf_counter() - start
    if response.status_code != 302:
        raise SystemExit(f"upload of {path.name} answered {response.status_code}: {response.text[:500]}")
    return response.headers["location"], held


def follow(http, progress_url, worker):
    status_url = progress_url.replace("/progress/", "/status/")
    while True:
        state = http.get(status_url).json()
        if state["finished"]:
            return state
        if worker.process.poll() is not None:
            raise SystemExit("the Celery worker exited during the import")
        time.sleep(0.5)


def measure(label, http, url, path, fields, gunicorn):
    from benchmarks.models import Upload

    with Worker() as worker:
        progress_url, held = upload(http, url, path, fields)
        state = follow(http, progress_url, worker)
        task_peak = peak_rss(worker.process.pid)
    upload_row = Upload.objects.get(pk=int(progress_url.rstrip("/").split("/")[-2]))
    seconds = (upload_row.finished_at - upload_row.started_at).total_seconds()
    web_peak = max(peak_rss(pid) for pid in children(gunicorn.pid))
    if state["status"] != "done":
        raise SystemExit(f"{label}: {state['status']}: {upload_row.errors[:3]}")
    print(f"{label}: {path.stat().st_size / 2**20:,.1f} MB, {upload_row.rows_read:,} rows")
    print(f"  upload POST held the request {held:.2f} s (gunicorn worker peak RSS {mb(web_peak)})")
    print(f"  import by the worker: {seconds:.1f} s = {upload_row.rows_read / seconds:,.0f} rows/s")
    print(f"  worker process peak RSS {mb(task_peak)} (idle {mb(worker.idle)}): goal <= {mb(GOAL_BYTES)} "
          f"{'met' if task_peak <= GOAL_BYTES else 'NOT met'} (ratio {task_peak / GOAL_BYTES:.2f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/llmbench_uploads_bench")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--broker-url", default=os.environ.get("CELERY_BROKER_URL"))
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--limit-file", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--snapshot", action="store_true", help="also a snapshot CSV at IMPORT_MAX_BYTES")
    args = parser.parse_args()
    configure(args)
    scratch = Path(tempfile.mkdtemp(prefix="bench-uploads-"))
    os.environ.update(UPLOADS_DIR=str(scratch / "uploads"), CELERY_BROKER_URL=args.broker_url or args.redis_url)
    recreate_database(args.database_url)
    import django

    django.setup()
    import httpx
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0, stdout=open(os.devnull, "w"))
    call_command("collectstatic", interactive=False, verbosity=0)  # the admin's hashed static files
    from firstparty.models import Run

    source, session = setup()
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    gunicorn, port = start_gunicorn(args.port, workers=3)  # the README's command
    try:
        # The production settings mark the session and CSRF cookies Secure, which a client does not send
        # over the loopback's plain HTTP: they go in a header (the CSRF cookie's secret doubles as the token).
        cookies = f"sessionid={session}; csrftoken={CSRF_SECRET}"
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers={"Cookie": cookies}, timeout=120) as http:
            files = []
            if args.records:
                path = scratch / "records.csv"
                print(f"writing {write_csv(path, args.records):,} records to {path.name} …")
                files.append((f"{args.records:,} records (CSV)", path))
            if args.limit_file:
                path = scratch / "records-at-limit.jsonl"
                rows = write_jsonl_up_to(path, settings.RECORDS_UPLOAD_MAX_BYTES - 1024)
                print(f"writing {rows:,} records to {path.name}, just under the "
                      f"{mb(settings.RECORDS_UPLOAD_MAX_BYTES)} limit …")
                files.append(("JSONL at the upload limit", path))
            for label, path in files:
                run = Run.objects.create(name=f"bench {path.name}", source=source)
                measure(label, http, f"/admin/firstparty/runs/{run.pk}/upload/", path, {}, gunicorn)
            if args.snapshot:
                bench_snapshot(http, scratch, gunicorn, settings.IMPORT_MAX_BYTES)
    finally:
        gunicorn.terminate()
        gunicorn.wait(timeout=30)


def bench_snapshot(http, scratch, gunicorn, limit):
    from bench_ingest import make_catalogue

    lines, _endpoints, source = make_catalogue(limit // 40)
    path = scratch / "snapshot.csv"
    text = "\n".join(lines) + "\n"
    while len(text.encode()) > limit:
        lines = lines[: len(lines) * 9 // 10]
        text = "\n".join(lines) + "\n"
    path.write_text(text)
    measure("snapshot CSV near IMPORT_MAX_BYTES", http, "/admin/benchmarks/import/snapshot/", path,
            {"source": str(source.pk), "measured_at": "2026-11-28 14:00:00"}, gunicorn)


if __name__ == "__main__":
    main()
