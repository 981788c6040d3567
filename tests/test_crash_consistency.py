"""A publish and a refresh are all or nothing, even when the database dies under them.

A real PostgreSQL server (our own throwaway cluster, tests/crash_support.py) is stopped with
`pg_ctl stop -m immediate` at each step of an editor's publish and of a refresh run, while the
application (tests/crash_app.py, a separate process, as in production) waits at that step. After the
server is back, readers get either the old page with nothing new live, or the new page with
everything it needs; the editor was told which; a refresh run says what it did; and the reconciler
heals, from the database, whatever the cache missed.
"""

import os
import uuid

import pytest

from .conftest import MIGRATED_DUMP
from .crash_support import (
    AppProcess,
    ThrowawayPostgres,
    build_template,
    forget_cache_keys,
    missing_requirement,
)

pytestmark = [
    pytest.mark.crash,
    pytest.mark.django_db,  # so pytest-django migrates the session's database, whose dump the template uses
    pytest.mark.skipif(missing_requirement() is not None, reason=missing_requirement() or ""),
]

ARTICLE = "/en/fastest-llm-api/"
HOME = "/en/"
OLD_TITLE = "Fastest LLM API: output speed per model, not per vendor"
OLD_SPEED, NEW_SPEED = "98.2", "101.7"  # Z.ai's GLM-5.3 output speed, before and after the refresh


@pytest.fixture(scope="session")
def crash_server(request, django_db_setup, tmp_path_factory):
    """The throwaway cluster with a template database: the demo site, an editor, a refreshable source."""
    root = tmp_path_factory.mktemp("crash")
    cluster = ThrowawayPostgres()
    files = root / "files"
    files.mkdir()
    log_path = root / "app.log"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.crash_settings", "CRASH_FILES_DIR": str(files),
           "CRASH_CACHE_PREFIX": f"crash-{uuid.uuid4().hex[:8]}-template",
           "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")}
    env.pop("CRASH_PAUSE_AT", None)
    try:
        cluster.init().start()
        with open(log_path, "a") as log:
            build_template(cluster, request.config.stash.get(MIGRATED_DUMP, None), env, log)
        forget_cache_keys(env["REDIS_URL"], env["CRASH_CACHE_PREFIX"])
        yield cluster, env, log_path
    finally:
        cluster.destroy()


class Scenario:
    """One copy of the template database, its own cache keys, and a process answering for readers."""

    def __init__(self, cluster, env, log_path, name):
        self.cluster = cluster
        self.name = name
        cluster.clone(name)
        self.env = {**env, "TEST_DATABASE_URL": cluster.url(name),
                    "CRASH_CACHE_PREFIX": f"crash-{uuid.uuid4().hex[:8]}-{name}"}
        self.log = open(log_path, "a")  # closed in close()
        self.readers = AppProcess(["serve"], self.env, self.log)

    def app(self, *args, pause_at=()):
        # ARTICLE_PRERENDER off: a web process or a refresh only queues the pre-rendering, for a worker;
        # with tasks run in-process (the test settings) it would render every article here.
        env = {**self.env, "CRASH_PAUSE_AT": ",".join(pause_at), "ARTICLE_PRERENDER": "0"}
        return AppProcess(list(args), env, self.log)

    def read(self, *find, urls=(ARTICLE, HOME)):
        return self.readers.ask("read", urls=list(urls), find=list(find))

    def state(self):
        return self.readers.ask("state")

    def reconcile(self):
        return self.readers.ask("reconcile")

    def crash_database(self):
        self.cluster.crash()
        self.cluster.restart_after_crash()

    def close(self):
        self.readers.close()
        self.log.close()
        forget_cache_keys(self.env["REDIS_URL"], self.env["CRASH_CACHE_PREFIX"])
        self.cluster.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


@pytest.fixture
def scenario(crash_server, request):
    cluster, env, log_path = crash_server
    current = Scenario(cluster, env, log_path, request.node.name.replace("test_", "")[:40])
    # Readers have the page cached, and the caches follow the database, before anything happens
    # (the scenario's cache keys are new: the first run records the state they follow).
    current.reconcile()
    assert current.reconcile() == []
    for answer in current.read(OLD_TITLE).values():
        assert answer["status"] == 200 and answer["found"] == [OLD_TITLE], answer
    assert {a["cache"] for a in current.read().values()} == {"hit"}
    yield current
    current.close()


def new_title(scenario):
    return f"Fastest LLM API ({scenario.name})"


# --- publish ----------------------------------------------------------------------------------------
def test_publish_crash_before_commit_leaves_the_old_page_and_tells_the_editor(scenario):
    before = scenario.state()
    editor = scenario.app("publish", new_title(scenario), pause_at=["publish:in-transaction"])
    editor.paused_at("publish:in-transaction")
    scenario.crash_database()
    editor.resume()
    assert editor.result()["status"] == 500  # the editor is told it failed, and it did

    after = scenario.state()
    assert after["title"] == OLD_TITLE and after["live_revision"] == before["live_revision"]
    assert after["revisions"] == before["revisions"]  # not even the draft revision: one transaction
    assert after["content_version"] == before["content_version"]
    for answer in scenario.read(OLD_TITLE, new_title(scenario)).values():
        assert answer["found"] == [OLD_TITLE], answer
    assert scenario.reconcile() == []  # nothing was lost: nothing to heal


def test_publish_crash_after_commit_keeps_the_new_page_and_the_reconciler_drops_stale_copies(scenario):
    title = new_title(scenario)
    before = scenario.state()
    editor = scenario.app("publish", title, pause_at=["publish:in-transaction", "publish:after-commit"])
    editor.paused_at("publish:in-transaction")
    # A reader's request while the publish is open still renders the committed (old) page, and caches
    # it: the caches must be told again after the commit; here that never happens.
    for answer in scenario.read(OLD_TITLE).values():
        assert answer["found"] == [OLD_TITLE], answer
    editor.resume()
    editor.paused_at("publish:after-commit")
    scenario.crash_database()
    editor.kill()  # and the web process dies with it: nothing after the commit runs

    after = scenario.state()
    assert after["title"] == title and after["live_revision"] != before["live_revision"]
    # Committed with the live revision, so no stored rendering from before matches any more.
    assert after["content_version"] > before["content_version"]
    assert not after["caches_follow_database"]
    stale = scenario.read(OLD_TITLE, title)
    assert stale[ARTICLE] == {**stale[ARTICLE], "cache": "hit", "found": [OLD_TITLE]}  # what the bug looked like

    assert "page and data generations bumped" in scenario.reconcile()
    for url, answer in scenario.read(OLD_TITLE, title).items():
        assert answer["status"] == 200 and answer["found"] == [title], (url, answer)
    assert scenario.state()["caches_follow_database"]
    assert scenario.reconcile() == []


def test_publish_crash_while_the_caches_follow_still_tells_the_editor_it_is_published(scenario):
    title = new_title(scenario)
    editor = scenario.app("publish", title, pause_at=["publish:after-commit"])
    editor.paused_at("publish:after-commit")
    scenario.crash_database()
    editor.resume()
    assert editor.result()["status"] == 302  # published, and the editor is told so

    assert scenario.state()["title"] == title
    scenario.reconcile()
    for url, answer in scenario.read(OLD_TITLE, title).items():
        assert answer["found"] == [title], (url, answer)


# --- refresh ----------------------------------------------------------------------------------------
def test_refresh_crash_before_commit_publishes_nothing_and_the_sweep_says_so(scenario):
    before = scenario.state()
    worker = scenario.app("refresh", pause_at=["refresh:in-transaction"])
    worker.paused_at("refresh:in-transaction")
    scenario.cluster.crash()
    worker.resume()
    worker.process.wait(timeout=60)  # it cannot record anything: the database is gone under it
    scenario.cluster.restart_after_crash()

    after = scenario.state()
    assert after["snapshots"] == before["snapshots"] and after["content_version"] == before["content_version"]
    [run] = after["runs"]
    assert (run["status"], run["snapshot_id"]) == ("running", None)
    assert scenario.read(OLD_SPEED, NEW_SPEED, urls=[ARTICLE])[ARTICLE]["found"] == [OLD_SPEED]
    assert scenario.reconcile() == []

    assert scenario.readers.ask("sweep") == [run["pk"]]
    [run] = scenario.state()["runs"]
    assert run["status"] == "failed" and "It wrote no snapshot" in run["error"], run


def test_refresh_crash_after_commit_keeps_the_run_and_its_snapshot_together(scenario):
    before = scenario.state()
    worker = scenario.app("refresh", pause_at=["refresh:after-commit"])
    worker.paused_at("refresh:after-commit")
    scenario.crash_database()
    worker.kill()

    after = scenario.state()
    [run] = after["runs"]
    new = [pk for pk, _status in after["snapshots"] if pk not in dict(before["snapshots"])]
    assert len(new) == 1 and dict(after["snapshots"])[new[0]] == "published"
    # The outcome committed with the snapshot: not "running / Writing", not "nothing was written".
    assert (run["status"], run["snapshot_id"], run["published"]) == ("changed", new[0], True), run
    assert run["notes"].startswith(f"Snapshot #{new[0]} published")
    assert after["content_version"] > before["content_version"]

    stale = scenario.read(OLD_SPEED, NEW_SPEED, urls=[ARTICLE])[ARTICLE]
    assert (stale["cache"], stale["found"]) == ("hit", [OLD_SPEED])  # the generation bump was lost
    assert "page and data generations bumped" in scenario.reconcile()
    fresh = scenario.read(OLD_SPEED, NEW_SPEED, urls=[ARTICLE])[ARTICLE]
    assert NEW_SPEED in fresh["found"] and fresh["cache"] == "miss", fresh
    assert scenario.readers.ask("sweep") == []  # nothing stuck: the run has its outcome
