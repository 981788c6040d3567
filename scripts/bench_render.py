"""Measure what rendering an article costs: wall time and queries, with the page cache empty and the
article rendered in the request ("live"), empty and the article served from the rendering the
prerender task stored ("cold"; articles/prerender.py), and filled ("warm").

    python scripts/bench_render.py [--runs 20] [--url /en/fastest-llm-api/]

Runs against the configured database (by default the `make run` SQLite file with demo content;
set DJANGO_SETTINGS_MODULE / DATABASE_URL for PostgreSQL). Prints figures; asserts nothing. Its cache is
its own: keys under a bench-<pid> prefix in Redis (CACHE_URL), or a scratch folder for the dev file cache, so
emptying it between renders touches neither a running `make run` nor anyone else's Redis keys.
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

from bench_env import clear_own_keys, own_key_prefix  # noqa: E402


def use_own_cache():
    """Point the cache settings at keys (Redis) or files (dev file cache) of this run only."""
    prefix = own_key_prefix()
    os.environ.update(BENCH_KEY_PREFIX=prefix, CACHE_KEY_PREFIX=prefix,
                      DEV_CACHE_DIR=tempfile.mkdtemp(prefix=f"{prefix}-cache-"))
    return os.environ["DEV_CACHE_DIR"]


def empty_own_cache(scratch_dir):
    from django.core.cache import cache

    if hasattr(cache, "delete_pattern"):
        clear_own_keys()
    elif getattr(cache, "_dir", None) == scratch_dir:
        shutil.rmtree(scratch_dir, ignore_errors=True)
    else:
        raise SystemExit("bench_render needs Redis (CACHE_URL) or the dev settings' file cache")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--url", action="append", dest="urls")
    args = parser.parse_args()
    scratch_cache = use_own_cache()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings

    from articles.tasks import prerender_due

    prerender_due()  # what the worker does after a publish or a refresh

    urls = args.urls or ["/en/fastest-llm-api/", "/es/api-llm-mas-rapida/", "/en/glm-5-3-flash-providers/"]
    client = Client(HTTP_HOST="localhost")
    # Live and cold requests go through the middleware without the page cache (a query string no
    # longer skips it, and emptying the cache keeps each process's own copies): this client loads its
    # middleware at its first request, made inside the override.
    without_page_cache = override_settings(
        MIDDLEWARE=[name for name in settings.MIDDLEWARE if name != "config.page_cache.PageCacheMiddleware"]
    )
    uncached = Client(HTTP_HOST="localhost")
    print(f"{'page':34} {'mode':5} {'median ms':>10} {'p90 ms':>8} {'queries':>8} {'KiB':>6}")
    for url in urls:
        for mode in ("live", "cold", "warm"):
            times, queries, size = [], 0, 0
            for _ in range(args.runs):
                if mode != "warm":
                    empty_own_cache(scratch_cache)
                with (override_settings(ARTICLE_PRERENDER=mode != "live"),
                      nullcontext() if mode == "warm" else without_page_cache,
                      CaptureQueriesContext(connection) as ctx):
                    start = time.perf_counter()
                    response = (client if mode == "warm" else uncached).get(url)
                    times.append((time.perf_counter() - start) * 1000)
                if response.status_code != 200:
                    sys.exit(f"{url} answered {response.status_code}: run `make run` (or load_demo) first")
                queries, size = len(ctx.captured_queries), len(response.content)
            times.sort()
            p90 = times[int(len(times) * 0.9) - 1]
            print(f"{url:34} {mode:5} {statistics.median(times):10.1f} {p90:8.1f} {queries:8d} {size / 1024:6.1f}")
    shutil.rmtree(scratch_cache, ignore_errors=True)


if __name__ == "__main__":
    main()
