"""Measure what rendering an article costs: wall time and queries, with the page cache empty and the
article rendered in the request ("live"), empty and the article served from the rendering the
prerender task stored ("cold"; articles/prerender.py), and filled ("warm").

    python scripts/bench_render.py [--runs 20] [--url /en/fastest-llm-api/]

Runs against the configured database (by default the `make run` SQLite file with demo content;
set DJANGO_SETTINGS_MODULE / DATABASE_URL for PostgreSQL). Prints figures; asserts nothing.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--url", action="append", dest="urls")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings

    from articles.tasks import prerender_due

    prerender_due()  # what the worker does after a publish or a refresh

    urls = args.urls or ["/en/fastest-llm-api/", "/es/api-llm-mas-rapida/", "/en/glm-5-3-flash-providers/"]
    client = Client(HTTP_HOST="localhost")
    print(f"{'page':34} {'mode':5} {'median ms':>10} {'p90 ms':>8} {'queries':>8} {'KiB':>6}")
    for url in urls:
        for mode in ("live", "cold", "warm"):
            times, queries, size = [], 0, 0
            for _ in range(args.runs):
                if mode != "warm":
                    cache.clear()
                with override_settings(ARTICLE_PRERENDER=mode != "live"), CaptureQueriesContext(connection) as ctx:
                    start = time.perf_counter()
                    # A query string skips the whole-page cache, whose per-process copies cache.clear() keeps.
                    response = client.get(url if mode == "warm" else url + "?bench=" + mode)
                    times.append((time.perf_counter() - start) * 1000)
                if response.status_code != 200:
                    sys.exit(f"{url} answered {response.status_code}: run `make run` (or load_demo) first")
                queries, size = len(ctx.captured_queries), len(response.content)
            times.sort()
            p90 = times[int(len(times) * 0.9) - 1]
            print(f"{url:34} {mode:5} {statistics.median(times):10.1f} {p90:8.1f} {queries:8d} {size / 1024:6.1f}")


if __name__ == "__main__":
    main()
