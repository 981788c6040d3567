"""The application side of the crash tests (tests/test_crash_consistency.py), run as a subprocess against
the throwaway PostgreSQL cluster of tests/crash_support.py.

    python tests/crash_app.py world            the demo site, an editor, a refreshable source
    python tests/crash_app.py publish TITLE    an editor publishes the demo article with a new title
    python tests/crash_app.py refresh          one refresh run of that source
    python tests/crash_app.py serve            answers commands (read, state, reconcile, sweep) on stdin

CRASH_PAUSE_AT names the points (comma-separated) where the process stops and waits for a line on
stdin, after printing {"paused": point}; the test kills the database (and maybe this process) there.
The points hook into the code from outside, as a debugger would:
    publish:in-transaction  after the page was saved live and the content version bumped, before commit
    publish:after-commit    after the commit, before the caches follow it (benchmarks.cache, articles.cache_purge)
    refresh:in-transaction  the run's snapshot written and published, its outcome being saved, no commit
    refresh:after-commit    after the commit, before the caches follow it (benchmarks.cache)
"""

import json
import os
import sys
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.crash_settings")

import django  # noqa: E402

django.setup()

from django.db import connections  # noqa: E402
from django.utils import timezone  # noqa: E402

ARTICLE_SLUG = "fastest-llm-api"
SOURCE_TITLE = "GLM-5.3 providers"  # the source of the article's GLM-5.3 speed table
# Z.ai's GLM-5.3 output speed, 98.2 in the demo data; the refresh brings this figure.
NEW_SPEED = "101.7"
PAUSES = set(filter(None, os.environ.get("CRASH_PAUSE_AT", "").split(",")))


def say(**message):
    print(json.dumps(message, default=str), flush=True)


def pause(point):
    if point in PAUSES:
        PAUSES.discard(point)  # once: a point may be reached by two steps (see pause_when_caches_follow)
        say(paused=point)
        sys.stdin.readline()


def pause_when_caches_follow(point):
    """The first thing after a commit: the caches follow the keys the change bumped (a receiver of
    benchmarks.versioning.content_version_bumped), before the data and page generations."""
    from benchmarks.cache import follow_content_version
    from benchmarks.versioning import content_version_bumped

    content_version_bumped.disconnect(dispatch_uid="cache-follows-content-version")

    def paused(sender, **kwargs):
        pause(point)
        return follow_content_version(sender, **kwargs)

    content_version_bumped.connect(paused, weak=False, dispatch_uid="cache-follows-content-version")


def wrap_with_pause(owner, name, point):
    original = getattr(owner, name)

    def paused(*args, **kwargs):
        pause(point)
        return original(*args, **kwargs)

    setattr(owner, name, paused)


# --- world ------------------------------------------------------------------------------------------
def without_reviews():
    """The review of the figures a snapshot changed, and the check of figures typed in prose, take
    seconds each (reviews/tasks.py): a worker does them after the commit, and with tasks run
    in-process (the test settings) this process would. They are not what these tests are about."""
    import reviews.tasks

    class NotRun:
        @staticmethod
        def delay(*args, **kwargs):
            return None

    reviews.tasks.record_snapshot_changes = NotRun
    reviews.tasks.check_typed_figures = NotRun


def editor_client():
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client(raise_request_exception=False)  # the editor sees what the server answers
    client.force_login(get_user_model().objects.get(username="editor"))
    return client


def form_path():
    return Path(os.environ["CRASH_FILES_DIR"]) / "article_edit_form.json"


def keep_edit_form():
    """What the article's edit form posts untouched, as an editor's browser has it open: each scenario
    starts from a copy of this database, so the publish need not load the heavy form again."""
    from django.urls import reverse

    from articles.models import ArticlePage
    from tests.admin_forms import form_data
    from tests.page_post_data import stream_post_data

    page = ArticlePage.objects.get(slug_en=ARTICLE_SLUG)
    url = reverse("wagtailadmin_pages:edit", args=[page.pk])
    data = form_data(editor_client().get(url).text, "page-edit-form")
    data.update(stream_post_data(page.get_latest_revision_as_object().body_en, "body_en"))
    form_path().write_text(json.dumps({"url": url, "data": data}), encoding="utf-8")


def world():
    from django.contrib.auth import get_user_model

    from articles.demo import load_demo_site
    from articles.reconcile import reconcile
    from benchmarks.models import Measurement, RefreshConfig, Snapshot, Source, UpstreamMapping

    without_reviews()
    load_demo_site()
    get_user_model().objects.create_superuser("editor", "editor@example.com", "pw-editor-123")

    source = Source.objects.get(title=SOURCE_TITLE)
    latest = Snapshot.objects.published().filter(source=source).order_by("-pk").first()
    rows = list(latest.measurements.filter(metric__in=["output_speed_median", "ttfc_median"])
                .select_related("endpoint__provider"))
    # What the file brings: speed and first-chunk time (the legacy file has no accuracy index), so the
    # source's last snapshot carries the same two figures, or the run would be held for review.
    baseline = Snapshot.objects.create(source=source, workload=latest.workload, effort=latest.effort,
                                       measured_at=timezone.now() - timedelta(hours=1))
    Measurement.objects.bulk_create(
        Measurement(snapshot=baseline, endpoint=row.endpoint, metric=row.metric, value=row.value) for row in rows
    )
    baseline.publish()
    values = {}
    for row in rows:
        values.setdefault(row.endpoint, {})[row.metric] = row.value
    data = []
    for endpoint, metrics in values.items():
        speed = metrics["output_speed_median"]
        if endpoint.provider.name == "Z.ai":
            assert speed == Decimal("98.2"), speed
            speed = Decimal(NEW_SPEED)
        data.append({"id": f"crash-{endpoint.pk}", "name": str(endpoint), "slug": "glm-5-3",
                     "pricing": {"price_1m_input_tokens": 0, "price_1m_output_tokens": 0},  # 0: no price
                     "median_output_tokens_per_second": float(speed),
                     "median_time_to_first_token_seconds": float(metrics["ttfc_median"])})
        UpstreamMapping.objects.create(upstream="artificial_analysis", upstream_id=f"crash-{endpoint.pk}",
                                       endpoint=endpoint)
    path = Path(os.environ["CRASH_FILES_DIR"]) / "aa_legacy.json"
    path.write_text(json.dumps({"data": data}), encoding="utf-8")
    RefreshConfig.objects.create(source=source, adapter="artificial_analysis_legacy_file",
                                 params={"path": str(path), "include": ["glm-5-3"]}, workload=latest.workload, effort=latest.effort)
    Source.objects.filter(pk=source.pk).update(auto_publish=True)
    keep_edit_form()
    reconcile()
    return {"source": source.pk}


# --- what an editor or a worker does ------------------------------------------------------------------
def publish(title):
    from wagtail.signals import page_published

    import articles.cache_purge

    without_reviews()
    form = json.loads(form_path().read_text(encoding="utf-8"))
    client = editor_client()
    # Connected after articles.cache_purge's handler: the version is bumped when this runs.
    page_published.connect(lambda **kwargs: pause("publish:in-transaction"), weak=False)
    pause_when_caches_follow("publish:after-commit")
    wrap_with_pause(articles.cache_purge, "caches_follow", "publish:after-commit")
    response = client.post(form["url"], {**form["data"], "title_en": title, "action-publish": "action-publish"})
    return {"status": response.status_code}


def refresh():
    import benchmarks.cache
    from benchmarks.ingest.refresh import Refresh, run_refresh
    from benchmarks.models import Source

    without_reviews()
    wrap_with_pause(Refresh, "finish", "refresh:in-transaction")
    pause_when_caches_follow("refresh:after-commit")
    wrap_with_pause(benchmarks.cache, "bump_cache_generation", "refresh:after-commit")
    run = run_refresh(Source.objects.get(title=SOURCE_TITLE).pk)
    return {"status": run.status}


# --- what readers get, and what the database says ---------------------------------------------------
def read(urls, find):
    from django.test import Client

    answers = {}
    for url in urls:
        response = Client().get(url)
        body = response.content.decode()
        answers[url] = {
            "status": response.status_code,
            "cache": response.get("X-Page-Cache"),
            "render": response.get("X-Article-Render"),
            "found": [text for text in find if text in body],
        }
    return answers


def state():
    from articles.models import ArticlePage
    from benchmarks.cache import reflected_state
    from benchmarks.models import RefreshRun, Snapshot, Source
    from benchmarks.versioning import current_version, database_state

    page = ArticlePage.objects.get(slug_en=ARTICLE_SLUG)
    source = Source.objects.get(title=SOURCE_TITLE)
    return {
        "title": page.title_en,
        "live_revision": page.live_revision_id,
        "revisions": page.revisions.count(),
        "content_version": current_version(),
        "caches_follow_database": reflected_state() == database_state(),
        "snapshots": list(Snapshot.objects.filter(source=source).order_by("pk").values_list("pk", "status")),
        "runs": list(RefreshRun.objects.order_by("pk").values(
            "pk", "status", "progress", "snapshot_id", "published", "error", "notes")),
    }


def serve():
    from articles.reconcile import reconcile
    from benchmarks.ingest.scheduling import fail_stuck_runs

    commands = {
        "read": read,
        "state": state,
        "reconcile": reconcile,
        "sweep": lambda: fail_stuck_runs(now=timezone.now() + timedelta(days=1)),
    }
    for line in sys.stdin:
        request = json.loads(line)
        connections.close_all()  # the database may have crashed and come back since the last command
        say(result=commands[request.pop("command")](**request))


if __name__ == "__main__":
    command, *arguments = sys.argv[1:]
    if command == "serve":
        serve()
    else:
        say(result={"world": world, "publish": publish, "refresh": refresh}[command](*arguments))
