"""Serving benchmark: one run on this machine prints every figure of issue 16 with its ratio.

    python scripts/bench_serving.py [--duration 10] [--concurrency 50] [--history 2000] [--ingest-rows 20000]

It builds its own PostgreSQL database (--database-url, default postgres://postgres@127.0.0.1:5432/
llmbench_bench; dropped and re-created) with the demo content under the production settings, then:

1. HTTP through one gunicorn (2 workers, loopback only): the cached article vs the same bytes as a
   static file served by WhiteNoise (req/s, p50, p99); then a new random query string on every
   request (`?nocache=<random>`, what a flood sends) on the article and on its data page vs the same
   URLs cached (config/query_contract.py). Load comes from `wrk` (installed with apt-get when missing
   and possible) or, failing that, a bounded Python thread pool.
2. Uncached render of the article vs a plain page of this project whose rich-text body has the
   same byte size (median of in-process renders, the page cache out of the middleware and the run's
   caches emptied before each). The article is served from the rendering the prerender task stored
   (articles/prerender.py), as in production; the render that task does is printed too, and the
   same two figures for the data page.
3. Uncached article render with no past snapshots vs --history past snapshots per source (both the
   stored rendering and the render itself).
4. import_snapshot rows/s vs COPY of the same rows into the same table.
5. Publishing the demo article from the editor: the edit view's real POST with "Publish", its queries
   and time, and the edit view's own (scripts/bench_publish.py).
6. Side by side over HTTP (scripts/bench_compare.py): the article rendered in the request and served from
   its stored rendering, the edit view and the edit form's publish POST, against a running
   wagtail/bakerydemo (--bakerydemo-url, --bakerydemo-user, --bakerydemo-password) or, without one, this
   project's plain page of the article's size; interleaved rounds, medians, the load average printed.
7. The review of changed figures and the pre-render task after a refresh, with no history and with it.

Last, issue 28's table: every goal with its figures, met or not (scripts/bench_goals.py).

Prints figures and whether each goal is met; asserts nothing. Redis: --redis-url (default REDIS_URL or
redis://127.0.0.1:6379/0); the script's keys carry their own prefix (bench-<pid>) and only those are
deleted, so it never flushes a database others use. gunicorn binds --port (default 0: a free one); a port
already taken stops the run.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_env import (  # noqa: E402
    DEFAULT_REDIS_URL,
    ROOT,
    clear_own_keys,
    configure,
    recreate_database,
    start_gunicorn,
    stop,
)

ARTICLE = "/en/fastest-llm-api/"
DATA_PAGE = ARTICLE + "data/"
PAGE_CACHE = "config.page_cache.PageCacheMiddleware"
# wrk, `-- random`: every request gets a query string no other request had (thread id, counter,
# random number); `-- same`: the bare URL, built the same way, so both sides of a ratio pay the same
# client-side cost (wrk and gunicorn share this machine's cores).
REQUEST_LUA = """
local threads = 0
function setup(thread) threads = threads + 1; thread:set("id", threads) end
local counter, random = 0, false
function init(args) random = args[1] == "random" end
function request()
  counter = counter + 1
  if not random then return wrk.format(nil, wrk.path) end
  return wrk.format(nil, wrk.path .. "?nocache=" .. id .. "-" .. counter .. "-" .. math.random(1000000000))
end
"""


def setup_site():
    from django.core.management import call_command
    from wagtail.signal_handlers import disable_reference_index_auto_update

    from articles.demo import load_demo_site

    clear_own_keys()
    call_command("migrate", interactive=False, verbosity=0, stdout=open(os.devnull, "w"))
    call_command("update_translation_fields", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    with disable_reference_index_auto_update():
        load_demo_site()


def median_ms(fn, runs, before=None):
    times = []
    for _ in range(runs):
        if before:
            before()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def uncached_ms(url, runs, how=None):
    """Median time of a render with the page cache out of the middleware and the run's cache keys
    emptied before each (not timed). `how`: the route's X-Article-Render must say so ("stored" or
    "live"), so a figure never measures the other path by mistake."""
    from django.conf import settings
    from django.test import Client
    from django.test.utils import override_settings

    from articles.prerender import HEADER

    with override_settings(MIDDLEWARE=[name for name in settings.MIDDLEWARE if name != PAGE_CACHE]):
        client = Client()  # loads the middleware at its first request, inside the override

        def render():
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            assert how is None or response[HEADER] == how, (url, response.get(HEADER), how)
            return response

        return median_ms(render, runs, before=clear_own_keys)


def uncached_size(url):
    from django.conf import settings
    from django.test import Client
    from django.test.utils import override_settings

    with override_settings(MIDDLEWARE=[name for name in settings.MIDDLEWARE if name != PAGE_CACHE]):
        return len(Client().get(url).content)


def plain_page_like(article_bytes):
    """A page of this project whose body is rich text only, with as many bytes as the article."""
    from articles.models import ArticleIndexPage, HomePage

    home = HomePage.objects.get()
    paragraph = "<p>" + "Plain rich text paragraph about inference providers and their speeds. " * 10 + "</p>"
    page = ArticleIndexPage(title="Plain page", slug="plain-page")
    page.intro = ""
    home.add_child(instance=page)
    base = uncached_size(page.url)
    page.intro = paragraph * max(1, (article_bytes - base) // len(paragraph))
    page.save_revision().publish()
    return page.url


def add_history(count):
    """`count` older published snapshots for each benchmark source shown on the article, by COPY."""
    from django.db import connection, transaction

    from benchmarks.models import Snapshot

    current = list(Snapshot.objects.filter(status="published", source__kind="benchmark").defer("raw_payload"))
    total = 0
    with transaction.atomic(), connection.cursor() as cursor:
        # Published snapshots take no new rows (history triggers); staging the past skips the triggers
        # for this transaction only, as tests do (tests/refresh_support.staged_history).
        cursor.execute("SET LOCAL session_replication_role = replica")
        total = _copy_history(current, count)
    with connection.cursor() as cursor:
        # Statistics as autovacuum would leave them a minute later: straight after a bulk COPY the planner
        # still expects the empty history and picked plans that took 13 s instead of 10 ms.
        for table in ("benchmarks_snapshot", "benchmarks_measurement", "benchmarks_currentmeasurement"):
            cursor.execute(f"ANALYZE {table}")
    return len(current), total


def _copy_history(current, count):
    from django.db import connection

    from benchmarks.models import Snapshot

    total = 0
    for snapshot in current:
        rows = list(snapshot.measurements.values_list("endpoint_id", "metric", "value"))
        olds = Snapshot.objects.bulk_create(
            [
                Snapshot(source_id=snapshot.source_id, measured_at=snapshot.measured_at - __import__("datetime").timedelta(hours=n + 1),
                         status="published", workload=snapshot.workload, raw_payload="x" * 2000)
                for n in range(count)
            ],
            batch_size=1000,
        )
        with connection.cursor() as cursor, cursor.copy(
            "COPY benchmarks_measurement (snapshot_id, endpoint_id, metric, value) FROM STDIN"
        ) as copy:
            for old in olds:
                for endpoint, metric, value in rows:
                    copy.write_row((old.pk, endpoint, metric, value))
                    total += 1
    return total


def ingest(rows_wanted):
    """import_snapshot on a generated CSV vs COPY of the same rows (rows/s each): scripts/bench_ingest.py."""
    from bench_ingest import ingest as measure_ingest

    return measure_ingest(rows_wanted)


# --- HTTP ---------------------------------------------------------------------------------------


def ensure_wrk():
    if shutil.which("wrk"):
        return shutil.which("wrk")
    if shutil.which("apt-get") and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], capture_output=True, timeout=300)
    return shutil.which("wrk")


def load_wrk(wrk, url, duration, concurrency, script=None):
    """`script`: None (plain wrk), "same" or "random" (REQUEST_LUA)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as lua:
        lua.write(REQUEST_LUA)
        lua.flush()
        out = subprocess.run(
            [wrk, "-t2", f"-c{concurrency}", f"-d{duration}s", "--latency",
             *(["-s", lua.name, url, "--", script] if script else [url])],
            capture_output=True, text=True, timeout=duration + 60,
        ).stdout

    def ms(label):
        match = re.search(rf"^\s*{label}\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), ms("50%"), ms("99%"), errors.group(1) if errors else "0"


def load_python(url, duration, concurrency, script=None):
    """Fallback load generator: `concurrency` threads, each request on a new connection, bounded by time."""
    latencies, errors, stop = [], [0], time.monotonic() + duration
    lock = threading.Lock()

    def worker():
        while time.monotonic() < stop:
            start = time.perf_counter()
            try:
                target = f"{url}?nocache={uuid.uuid4().hex}" if script == "random" else url
                with urllib.request.urlopen(target, timeout=10) as response:
                    response.read()
            except OSError:
                errors[0] += 1
                continue
            with lock:
                latencies.append((time.perf_counter() - start) * 1000)

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    latencies.sort()
    return (len(latencies) / duration, latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99)],
            str(errors[0]))


def http_comparison(args):
    # The page exactly as gunicorn serves it becomes the static file; WhiteNoise indexes files when it
    # starts, so gunicorn starts again once the file is there.
    process, port = start_gunicorn(args.port)
    try:
        article_bytes = urllib.request.urlopen(f"http://127.0.0.1:{port}{ARTICLE}", timeout=60).read()
    finally:
        stop(process)
    static_dir = ROOT / "static" / "bench"
    static_dir.mkdir(parents=True, exist_ok=True)
    (static_dir / "article.html").write_bytes(article_bytes)
    process, port = start_gunicorn(port)
    try:
        base = f"http://127.0.0.1:{port}"
        page = urllib.request.urlopen(base + ARTICLE, timeout=30)
        page.read()
        hit = urllib.request.urlopen(base + ARTICLE, timeout=30)
        assert hit.headers["X-Page-Cache"] == "hit", hit.headers["X-Page-Cache"]
        static_url = base + "/static/bench/article.html"
        assert urllib.request.urlopen(static_url).read() == hit.read(), "static copy differs from the page"
        # A flood's request: a query string never seen before, on pages a reader has opened.
        urllib.request.urlopen(base + DATA_PAGE, timeout=30).read()
        for path in (ARTICLE, DATA_PAGE):
            flood = urllib.request.urlopen(f"{base}{path}?nocache={uuid.uuid4().hex}", timeout=30)
            assert flood.headers["X-Page-Cache"] == "hit", (path, flood.headers["X-Page-Cache"])
        wrk = ensure_wrk()
        tool = "wrk" if wrk else "python threads"
        results = {}
        for name, url, script in (
            ("static file", static_url, None), ("cached article", base + ARTICLE, None),
            (f"{ARTICLE}", base + ARTICLE, "same"), (f"{ARTICLE}?random", base + ARTICLE, "random"),
            (f"{DATA_PAGE}", base + DATA_PAGE, "same"), (f"{DATA_PAGE}?random", base + DATA_PAGE, "random"),
        ):
            if wrk:
                results[name] = load_wrk(wrk, url, args.duration, args.concurrency, script)
            else:
                results[name] = load_python(url, args.duration, args.concurrency, script)
        return tool, results, article_bytes
    finally:
        stop(process)
        shutil.rmtree(static_dir, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/llmbench_bench")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--duration", type=int, default=10, help="seconds of load per URL (max 60)")
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--runs", type=int, default=15, help="renders per uncached measurement")
    parser.add_argument("--history", type=int, default=2000, help="past snapshots per source")
    parser.add_argument("--ingest-rows", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the side-by-side figures")
    parser.add_argument("--bakerydemo-url", default="", help="a running wagtail/bakerydemo, e.g. http://127.0.0.1:8701")
    parser.add_argument("--bakerydemo-user", default="admin")
    parser.add_argument("--bakerydemo-password", default="changeme")
    args = parser.parse_args()
    args.duration = min(args.duration, 60)
    configure(args)
    recreate_database(args.database_url)
    import django

    django.setup()
    print("setting up the demo site on", args.database_url, "...", flush=True)
    setup_site()
    from django.test.utils import override_settings

    from articles.tasks import prerender_due

    # What a Celery worker does after the demo's publications (no worker runs during the bench).
    print("pre-rendered articles:", prerender_due(), flush=True)

    tool, http, article_bytes = http_comparison(args)
    static, cached = http["static file"], http["cached article"]
    print(f"\n1. Same {len(article_bytes):,} bytes through one gunicorn (2 workers), {args.concurrency} clients, "
          f"{args.duration} s each, load by {tool}; then a new query string on every request (?random) vs the "
          f"bare URL cached, both sent by the same request script")
    print(f"   {'':30} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for name, (rps, p50, p99, errors) in http.items():
        print(f"   {name:30} {rps:9.0f} {p50:8.1f} {p99:8.1f} {errors:>7}")
    for label, measured, against in (
        ("cached/static", cached, static),
        ("article ?random/cached", http[f"{ARTICLE}?random"], http[ARTICLE]),
        ("data page ?random/cached", http[f"{DATA_PAGE}?random"], http[DATA_PAGE]),
    ):
        rps, p99 = measured[0] / against[0], measured[2] / against[2]
        print(f"   {label}: throughput {rps:.2f}x (goal >= 0.5x), p99 {p99:.2f}x (goal <= 2x): "
              f"{'met' if rps >= 0.5 and p99 <= 2 else 'NOT MET'}")

    plain_url = plain_page_like(len(article_bytes))
    prerender_due()  # publishing the plain page retired the stored articles (it could be linked from them)
    # What a reader's request costs: the article as the worker stored it (articles/prerender.py).
    article_ms = uncached_ms(ARTICLE, args.runs, "stored")
    plain_ms = uncached_ms(plain_url, args.runs)
    data_ms = uncached_ms(DATA_PAGE, args.runs, "stored")
    with override_settings(ARTICLE_PRERENDER=False):
        cold_ms = uncached_ms(ARTICLE, args.runs, "live")
        data_cold_ms = uncached_ms(DATA_PAGE, args.runs, "live")
    plain_bytes = uncached_size(plain_url)
    print(f"\n2. Uncached render, median of {args.runs}: article {article_ms:.1f} ms ({len(article_bytes):,} B), "
          f"plain rich-text page {plain_ms:.1f} ms ({plain_bytes:,} B): ratio {article_ms / plain_ms:.2f}x (goal <= 1.0x)")
    print(f"   (the article served from its stored rendering; rendering it in the request instead: {cold_ms:.1f} ms, "
          f"{cold_ms / plain_ms:.2f}x the plain page; that render now runs in the prerender task)")
    print(f"   data page: served from its stored rendering {data_ms:.1f} ms, rendered in the request {data_cold_ms:.1f} ms")

    from bench_goals import measure_side_by_side, print_goals
    from bench_review import prerender_seconds, review_seconds

    side, loads, reference = measure_side_by_side(args, plain_url)
    print(f"\n6. Side by side over HTTP with {reference}, {args.rounds} interleaved rounds, medians (ms): "
          + ", ".join(f"{name} {ms:.0f}" for name, ms in side.items()))
    review_seconds(1)  # the first in a process also builds URL resolvers and compiles patterns
    review_none, prerender_none = review_seconds(), prerender_seconds()
    sources, rows = add_history(args.history)
    review_many, prerender_many = review_seconds(), prerender_seconds()
    print(f"\n7. After a refresh of one source: review of changed figures {review_none[0]:.2f} s with no history, "
          f"{review_many[0]:.2f} s with {args.history} past snapshots per source ({review_many[1]} changes recorded); "
          f"pre-render task {prerender_none[0]:.2f} s and {prerender_many[0]:.2f} s ({prerender_many[1]} articles)")
    history_ms = uncached_ms(ARTICLE, args.runs, "stored")
    with override_settings(ARTICLE_PRERENDER=False):
        history_cold_ms = uncached_ms(ARTICLE, args.runs, "live")
    print(f"\n3. Uncached article render: no history {article_ms:.1f} ms, {args.history} past snapshots for each of "
          f"{sources} sources ({rows:,} more measurements) {history_ms:.1f} ms: ratio {history_ms / article_ms:.2f}x "
          f"(goal <= 1.2x)")
    print(f"   rendered in the request (as the prerender task does): no history {cold_ms:.1f} ms, with history "
          f"{history_cold_ms:.1f} ms: ratio {history_cold_ms / cold_ms:.2f}x (goal <= 1.2x)")

    count, import_rate, copy_rate, first_rate = ingest(args.ingest_rows)
    print(f"\n4. Ingest of {count:,} measurements: import_snapshot {import_rate:,.0f} rows/s (median of 3 after a first "
          f"import at {first_rate:,.0f} rows/s), COPY {copy_rate:,.0f} "
          f"rows/s: ratio {import_rate / copy_rate:.2f}x (goal >= 50,000 rows/s and >= 0.2x)")

    from bench_publish import measure, report

    published = measure()
    print(f"\n5. Publishing the demo article from the editor: {report(published, 3)}")
    figures = {
        "side": side, "reference": reference, "cached_vs_static": (cached[0] / static[0], cached[2] / static[2]),
        "history_render": history_cold_ms / cold_ms, "publish_queries": published[2],
        "review": (review_none[0], review_many[0]), "prerender": (prerender_none[0], prerender_many[0]),
        "ingest": import_rate / copy_rate,
    }
    print_goals(figures, loads)
    clear_own_keys()


if __name__ == "__main__":
    main()
