"""Issue 28's table, as scripts/bench_serving.py measures it: each goal with its figures and met / NOT met.

The reader's and the editor's figures are taken over HTTP against a running wagtail/bakerydemo when
--bakerydemo-url is given (its largest blog post, its edit view and the edit form's publish POST, logged
in with --bakerydemo-user / --bakerydemo-password); without one, against this project's plain rich-text
page of the article's size, and the table says so (there is no editor figure to compare then).
"""

import os
from contextlib import contextmanager

from bench_compare import Site, largest_blog_post, page_id_of, side_by_side
from bench_env import clear_own_keys, start_gunicorn, stop

ARTICLE = "/en/fastest-llm-api/"
EDITOR, EDITOR_PASSWORD = "bench-editor", "bench-" + "pw" * 10  # bench_publish.editor_client's user


@contextmanager
def gunicorn(port, **env):
    """A gunicorn (one worker: the rounds send one request at a time) with `env` set for it only."""
    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        process, port = start_gunicorn(port, workers=1)
    finally:
        for name, value in saved.items():
            os.environ.pop(name) if value is None else os.environ.__setitem__(name, value)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)


def reference_of(args, plain_base, plain_url):
    if not args.bakerydemo_url:
        return {"page": (Site(plain_base, "plain page"), plain_url), "editor": None}, "this project's plain page"
    reader = Site(args.bakerydemo_url, "bakerydemo")
    path, size = largest_blog_post(reader)
    editor = Site(args.bakerydemo_url, "bakerydemo admin")
    editor.login(args.bakerydemo_user, args.bakerydemo_password)
    return ({"page": (reader, path), "editor": (editor, page_id_of(editor, path))},
            f"bakerydemo's largest blog post ({path}, {size:,} B)")


def measure_side_by_side(args, plain_url):
    from bench_publish import editor_client

    from articles.models import ArticlePage

    editor_client()  # the admin user the edit view and the POST log in as
    page_id = ArticlePage.objects.get(slug_en="fastest-llm-api").pk
    with gunicorn(0, ARTICLE_PRERENDER="0") as live, gunicorn(0) as stored:
        editor = Site(stored, "editor")
        editor.login(EDITOR, EDITOR_PASSWORD)
        reference, name = reference_of(args, stored, plain_url)
        figures, loads = side_by_side(Site(live, "live"), Site(stored, "stored"), editor, page_id, reference,
                                      args.rounds, clear_own_keys)
    return figures, loads, name


def _row(measure, figure, goal, met):
    return measure, figure, goal, "met" if met else "NOT met"


def goals_table(figures):
    """[(measure, figures, goal, met)] from the run's figures (a dict bench_serving fills)."""
    rows = []
    side, name = figures["side"], figures["reference"]
    ratio = side["stored"] / side["reference"]
    rows.append(_row(f"article served from its stored rendering vs {name}",
                     f"{side['stored']:.0f} vs {side['reference']:.0f} ms: {ratio:.2f}x", "<= 1.0x (keep)", ratio <= 1.0))
    rps, p99 = figures["cached_vs_static"]
    rows.append(_row("cached article vs the same bytes as a static file", f"{rps:.2f}x req/s, p99 {p99:.2f}x",
                     ">= 0.5x, p99 <= 2x (keep)", rps >= 0.5 and p99 <= 2))
    render = figures["history_render"]
    rows.append(_row("render with 2,000 past snapshots per source vs none", f"{render:.2f}x", "<= 1.2x (keep)",
                     render <= 1.2))
    live = side["live"] / side["reference"]
    rows.append(_row(f"live render (previews, the pre-render task, every fallback) vs {name}",
                     f"{side['live']:.0f} vs {side['reference']:.0f} ms: {live:.2f}x", "<= 2x", live <= 2))
    queries, constant = figures["publish_queries"], figures.get("publish_constant", "tests/test_publish_cost.py")
    if "reference publish" in side:
        publish = side["publish"] / side["reference publish"]
        rows.append(_row("publish from the edit form (the browser's real POST)",
                         f"{side['publish']:.0f} vs {side['reference publish']:.0f} ms: {publish:.2f}x; "
                         f"{queries:.0f} queries", f"<= 2x the time, <= 150 queries ({constant})",
                         publish <= 2 and queries <= 150))
        edit = side["edit view"] / side["reference edit view"]
        rows.append(_row("opening the edit view", f"{side['edit view']:.0f} vs {side['reference edit view']:.0f} ms: "
                         f"{edit:.2f}x", "<= 1.5x", edit <= 1.5))
    else:
        rows.append(_row("publish from the edit form (the browser's real POST)",
                         f"{side['publish']:.0f} ms, {queries:.0f} queries (no bakerydemo to compare the time)",
                         "<= 150 queries here; time: pass --bakerydemo-url", queries <= 150))
    for key, label in (("review", "review of changed figures after a refresh"), ("prerender", "pre-render task")):
        none, many = figures[key]
        rows.append(_row(f"{label}, 2,000 past snapshots vs none", f"{many:.2f} vs {none:.2f} s: {many / none:.2f}x",
                         "<= 1.2x", many / none <= 1.2))
    ingest = figures["ingest"]
    rows.append(_row("import_snapshot vs COPY of the same rows", f"{ingest:.2f}x", ">= 0.5x", ingest >= 0.5))
    return rows


def print_goals(figures, loads):
    print(f"\nGoals of issue 28 (load average during the side-by-side rounds: {min(loads):.1f}-{max(loads):.1f} "
          f"on {os.cpu_count()} CPUs{'; noisy: run again on a quieter machine' if max(loads) > os.cpu_count() else ''})")
    for measure, figure, goal, met in goals_table(figures):
        print(f"   {met:8} {measure}: {figure} (goal {goal})")
