"""The benchmark scripts share Redis and the machine with other people: they delete only their own keys and
serve on the port they were given."""

import ast
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import redis

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "scripts").glob("*.py"))
sys.path.insert(0, str(ROOT / "scripts"))


def test_no_benchmark_script_flushes_a_cache_or_a_redis_database():
    offenders = []
    for path in SCRIPTS:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                name, owner = node.func.attr, node.func.value
                if name.lower() in {"flushdb", "flushall"} or (
                    name == "clear" and isinstance(owner, ast.Name) and owner.id == "cache"
                ):
                    offenders.append(f"{path.name}:{node.lineno} {name}()")
    assert SCRIPTS and offenders == []


# configure() as every script calls it, then the run's cache emptied as between two renders.
EMPTY_OWN_KEYS = """
import sys, types
sys.path.insert(0, "scripts")
from bench_env import clear_own_keys, configure
configure(types.SimpleNamespace(database_url="postgres://postgres@127.0.0.1:5432/unused", redis_url=sys.argv[1]))
import django
django.setup()
from django.conf import settings
from django.core.cache import cache
cache.set("page", "the run's own")
print(settings.CACHES["default"]["KEY_PREFIX"])
clear_own_keys()
print(cache.get("page"))
"""


def test_a_benchmark_run_keeps_its_keys_under_its_own_prefix_and_deletes_only_those():
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    others = redis.Redis.from_url(url)
    others.set("llmbench:1:someone-elses-page", "kept")
    try:
        env = {k: v for k, v in os.environ.items() if k not in {"CACHE_URL", "CACHE_KEY_PREFIX", "BENCH_KEY_PREFIX"}}
        result = subprocess.run([sys.executable, "-c", EMPTY_OWN_KEYS, url], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        prefix, page_after = result.stdout.split()
        assert prefix.startswith("bench-") and page_after == "None"
        assert others.get("llmbench:1:someone-elses-page") == b"kept"
    finally:
        others.delete("llmbench:1:someone-elses-page")


def test_gunicorn_is_not_taken_for_started_when_another_server_answers_on_the_port():
    from bench_env import start_gunicorn

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    started = None
    try:
        with pytest.raises(SystemExit, match=f"port {server.server_port} is in use"):
            started = start_gunicorn(server.server_port)
    finally:
        server.shutdown()
        server.server_close()
        if started:
            process = started[0] if isinstance(started, tuple) else started
            process.kill()
            process.wait()


@pytest.mark.django_db(transaction=False)
def test_the_publish_benchmark_publishes_through_the_editors_post(demo_site, monkeypatch):
    from bench_publish import measure

    from articles.models import ArticlePage
    from reviews import tasks

    monkeypatch.setattr(tasks.check_typed_figures, "delay", lambda *args: None)  # a worker's job
    before = ArticlePage.objects.get(slug_en="fastest-llm-api").live_revision_id
    edit_queries, _edit_ms, post_queries, _post_ms = measure(runs=1)
    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    # A new live revision, written by the admin's edit view for the editor the script logged in as
    # (save_revision() + publish() in Python would have no user and skip the form).
    assert page.live_revision_id != before
    assert page.live_revision.user.username == "bench-editor"
    assert 0 < edit_queries < post_queries
