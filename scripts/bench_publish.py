"""Publishing the demo article as an editor's browser does it: the edit view's GET, then its real POST
with "Publish" (the form as the page renders it, the StreamField as the editor's JavaScript posts it).

    python scripts/bench_publish.py [--database-url URL] [--redis-url URL] [--runs 3]

Standalone it builds its own PostgreSQL database (default postgres://postgres@127.0.0.1:5432/
llmbench_publish_bench; dropped and re-created) with the demo content under the production settings;
scripts/bench_serving.py calls measure() for its figure 5. `save_revision()` + `publish()` in Python skip
the form, its validation and the admin's hooks: about a fifth of what the POST costs. Prints figures;
asserts nothing. Redis: keys under the run's own prefix only.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_env import DEFAULT_REDIS_URL, configure, recreate_database  # noqa: E402

ARTICLE_SLUG = "fastest-llm-api"
GOAL_QUERIES = 150


def editor_client():
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.filter(username="bench-editor").first()
    if user is None:
        user = get_user_model().objects.create_superuser("bench-editor", "bench@example.com", "bench-" + "pw" * 10)
    client = Client()
    client.force_login(user)
    return client


def measure(runs=3):
    """Median (edit view queries, edit view ms, publish POST queries, publish POST ms) over `runs` publishes."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from articles.models import ArticlePage
    from tests.admin_forms import form_data
    from tests.page_post_data import stream_post_data

    client = editor_client()
    page = ArticlePage.objects.get(slug_en=ARTICLE_SLUG)
    url = f"/admin/pages/{page.pk}/edit/"
    client.get(url)  # the session, the editing-session row and the caches, as a second visit finds them
    figures = []
    for _ in range(runs):
        with CaptureQueriesContext(connection) as opened:
            start = time.perf_counter()
            response = client.get(url)
            edit_ms = (time.perf_counter() - start) * 1000
        assert response.status_code == 200, response.status_code
        data = form_data(response.content.decode(), "page-edit-form")
        draft = ArticlePage.objects.get(pk=page.pk).get_latest_revision_as_object()
        data.update(stream_post_data(draft.body_en, "body_en"))  # body_es is derived from it on save
        data["action-publish"] = "action-publish"
        with CaptureQueriesContext(connection) as published:
            start = time.perf_counter()
            response = client.post(url, data)
            post_ms = (time.perf_counter() - start) * 1000
        if response.status_code != 302:
            errors = response.context and response.context["form"].errors
            raise SystemExit(f"the publish POST answered {response.status_code}: {errors}")
        figures.append((len(opened.captured_queries), edit_ms, len(published.captured_queries), post_ms))
    return tuple(statistics.median(column) for column in zip(*figures, strict=True))


def report(figures, runs):
    edit_queries, edit_ms, post_queries, post_ms = figures
    return (f"edit view {edit_queries:.0f} queries, {edit_ms:.0f} ms; publish POST (action-publish) "
            f"{post_queries:.0f} queries, {post_ms:.0f} ms (median of {runs}; goal <= {GOAL_QUERIES} queries: "
            f"{'met' if post_queries <= GOAL_QUERIES else 'NOT met'})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/llmbench_publish_bench")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    configure(args)
    recreate_database(args.database_url)
    import os

    import django

    django.setup()
    from bench_serving import setup_site

    print("setting up the demo site on", args.database_url, "...", flush=True)
    setup_site()
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    print(report(measure(args.runs), args.runs))


if __name__ == "__main__":
    main()
