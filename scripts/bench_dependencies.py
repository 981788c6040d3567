"""What a change costs the pre-render task when stored renderings carry their dependencies (issue 28).

Builds a scratch database (default llmbench_deps; dropped and re-created) with N articles over M
sources (one model per source, one provider table per article, N / M articles per model), renders
them all, then measures:

1. a refresh of one source (a new published snapshot of its model): how many articles the task
   renders again, and how long it takes; then how many of the articles an anonymous reader had in
   the page cache are still answered from it (config/page_cache.py);
2. a page publish: how many articles it renders again (the page, and those linking to it), and how
   many stay in the page cache;
3. a change of unknown reach (the global version): every article, for comparison.

    .venv/bin/python scripts/bench_dependencies.py --articles 200 --sources 20
"""

import argparse
import os
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_env import DEFAULT_REDIS_URL, configure, recreate_database  # noqa: E402


def build(articles, sources):
    from django.core.management import call_command
    from django.utils import timezone
    from wagtail.signal_handlers import disable_reference_index_auto_update

    from articles.demo import ensure_home_page
    from benchmarks.models import Endpoint, LanguageModel, Measurement, Provider, Snapshot, Source

    call_command("migrate", interactive=False, verbosity=0, stdout=open(os.devnull, "w"))
    call_command("update_translation_fields", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    home = ensure_home_page()
    providers = [Provider.objects.create(name=f"Host {n}", slug=f"host-{n}") for n in range(5)]
    models = []
    for n in range(sources):
        model = LanguageModel.objects.create(name=f"Model {n}", slug=f"model-{n}")
        source = Source.objects.create(publisher="Bench", title=f"Model {n} providers", kind="benchmark")
        endpoints = [Endpoint.objects.create(provider=p, model=model) for p in providers]
        snapshot = Snapshot.objects.create(source=source, measured_at=timezone.now(), status="draft")
        Measurement.objects.bulk_create(
            Measurement(snapshot=snapshot, endpoint=e, metric="output_speed_median", value=Decimal(100 + i))
            for i, e in enumerate(endpoints))
        snapshot.publish()
        models.append((model, source, endpoints))
    with disable_reference_index_auto_update():
        for n in range(articles):
            model, source, _endpoints = models[n % sources]
            table = {"model": model.pk, "source": source.pk, "sort_metric": "output_speed_median",
                     "columns": [{"field": "output_speed_median", "difference_to_leader": False}],
                     "name_style": "short", "show_api_model": False, "cite_sources": True, "caption": "",
                     "max_rows": None}
            _article(home, n, source, table)
    return models


def _article(home, n, source, table):
    from articles.models import ArticlePage, ArticleSource

    page = ArticlePage(title=f"Bench {n}", slug=f"bench-{n}", body=[{"type": "provider_table", "value": table}])
    page.page_sources = [ArticleSource(source=source, sort_order=0)]
    home.add_child(instance=page)
    page.save_revision().publish()
    return page


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/llmbench_deps")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--articles", type=int, default=200)
    parser.add_argument("--sources", type=int, default=20)
    args = parser.parse_args()
    configure(args)
    recreate_database(args.database_url)
    import django

    django.setup()
    from django.db import transaction
    from django.test import Client
    from django.test.utils import override_settings
    from django.utils import timezone

    from articles.models import ArticlePage
    from articles.tasks import prerender_due
    from benchmarks.cache import bump_data_generation, invalidate_after_commit
    from benchmarks.models import Measurement, Snapshot

    print(f"building {args.articles} articles over {args.sources} sources ...", flush=True)
    with override_settings(ARTICLE_PRERENDER=True):
        models = build(args.articles, args.sources)
        rendered, seconds = timed(prerender_due)
        print(f"first render: {rendered} articles in {seconds:.2f} s", flush=True)
        per_model = args.articles // args.sources

        urls = [page.url for page in ArticlePage.objects.live().order_by("pk")]
        reader = Client()  # anonymous: the page cache keeps what it is answered

        def still_cached():
            """How many articles the page cache answered (each read refills what it missed)."""
            return [reader.get(url)["X-Page-Cache"] for url in urls].count("hit")

        still_cached()
        print(f"page cache filled: {still_cached()} of {len(urls)} articles answered from it")

        _model, source, endpoints = models[0]
        with transaction.atomic():
            snapshot = Snapshot.objects.create(source=source, measured_at=timezone.now(), status="draft")
            Measurement.objects.bulk_create(
                Measurement(snapshot=snapshot, endpoint=e, metric="output_speed_median", value=Decimal(200 + i))
                for i, e in enumerate(endpoints))
            snapshot.publish()
            invalidate_after_commit(keys=())  # as a refresh does: the publish bumped its model's keys
        refresh, refresh_s = timed(prerender_due)
        print(f"refresh of one source: {refresh} articles rendered again (expected {per_model}) in {refresh_s:.2f} s")
        kept_refresh = still_cached()
        print(f"  page cache: {kept_refresh} of {len(urls)} articles still answered from it "
              f"(expected {len(urls) - per_model}; 0 while one data generation keyed every page)")

        page = ArticlePage.objects.live().order_by("pk").first()
        with transaction.atomic():
            page.save_revision().publish()
        publish, publish_s = timed(prerender_due)
        print(f"publish of one page: {publish} articles rendered again (expected 1) in {publish_s:.2f} s")
        kept_publish = still_cached()
        print(f"  page cache: {kept_publish} of {len(urls)} articles still answered from it (expected {len(urls) - 1})")

        bump_data_generation()
        everything, everything_s = timed(prerender_due)
        print(f"change of unknown reach: {everything} articles rendered again in {everything_s:.2f} s")
        print(f"  page cache: {still_cached()} of {len(urls)} articles still answered from it (expected 0)")
        print(f"ratio: a refresh of one source costs {refresh_s / everything_s:.2f}× a full re-render "
              f"({refresh}/{everything} articles)")
        ok = (refresh == per_model and publish == 1 and everything == args.articles
              and kept_refresh == len(urls) - per_model and kept_publish == len(urls) - 1)
        print("goal met" if ok else "goal NOT met")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
