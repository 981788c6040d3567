import os
import shutil

import pytest

from tests.app_role import APP_ROLE, current_user, ensure_app_role, set_role


@pytest.fixture
def demo_site(db):
    """The bilingual demo site as `make run` loads it."""
    from articles.demo import load_demo_site

    load_demo_site()
    from articles.models import HomePage

    return HomePage.objects.get()


@pytest.fixture
def without_page_cache(settings):
    """Every request reaches the page (a query string no longer skips the page cache: each route's
    parameters are declared, config/query_contract.py). Set before the client's first request."""
    settings.MIDDLEWARE = [name for name in settings.MIDDLEWARE if name != "config.page_cache.PageCacheMiddleware"]


@pytest.fixture
def editor_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("editor", "editor@example.com", "pw-editor-123")
    client.force_login(user)
    return client


MIGRATED_DUMP = pytest.StashKey()


@pytest.fixture(scope="session", autouse=True)
def flush_past_history_guards():
    """Transactional tests end with Django's flush, one TRUNCATE of every table, which the history
    tables' guards refuse (migration benchmarks 0015). The suite connects as a superuser, which may
    flush in replica mode, where no ordinary trigger fires; the app's role could not."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, **options):
        statements = truncate(self, style, tables, **options)
        # execute_sql_flush runs these in one transaction: the setting ends with it.
        return ["SET LOCAL session_replication_role = replica", *statements] if statements else statements

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush)
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, request, tmp_path_factory):
    """Like `make run`: fill the *_en columns of Wagtail's own pages after migrating. When crash tests
    are selected, keep a dump of the freshly migrated database for their throwaway server (before any
    test ran: transactional tests empty the tables they used)."""
    from django.core.management import call_command

    with django_db_blocker.unblock():
        call_command("update_translation_fields", verbosity=0)
        ensure_app_role()
    if any(item.get_closest_marker("crash") for item in request.session.items):
        from tests.crash_support import dump_database
        from tests.worker_support import database_url

        target = tmp_path_factory.mktemp("migrated") / "migrated.dump"
        request.config.stash[MIGRATED_DUMP] = target if dump_database(database_url(), target) else None


@pytest.fixture
def app_role(db):
    """The rest of the test runs as the web and worker processes' role (tests/app_role.py)."""
    set_role(APP_ROLE)
    assert current_user() == APP_ROLE


@pytest.fixture(autouse=True)
def cached_pages_of_earlier_tests_retired():
    """Each test starts from a rolled-back database, as if restored from a backup, while Redis keeps
    this process's cached pages. Their dependency keys name rows of an earlier test (the same URL, other
    ids), which no change of this test bumps: retire them all, as the reconciler does after a restore."""
    from benchmarks.cache import EVERYTHING_KEY, GENERATION_KEY, bump_generation_key

    try:
        bump_generation_key(EVERYTHING_KEY)
        bump_generation_key(GENERATION_KEY)
    except Exception:  # noqa: BLE001 - a test without Redis has no cached pages either
        pass


@pytest.fixture(autouse=True)
def english_by_default():
    """A request to /es/ leaves Spanish active in the thread; each test starts in English."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture
def checks(monkeypatch):
    """The pages the typed-figure check itself ran on, in order (it still runs, for the worker)."""
    import articles.figure_check

    calls = []
    real = articles.figure_check.check_page

    def counted(page, languages=None):
        calls.append(page.pk)
        return real(page, languages)

    monkeypatch.setattr(articles.figure_check, "check_page", counted)
    return calls


@pytest.fixture(scope="session", autouse=True)
def uploads_scratch_folder():
    """The uploads storage of this run (config/settings/test.py) goes when the run ends."""
    yield
    from django.conf import settings

    if settings.UPLOADS_DIR.endswith(f"llmbench-test-uploads-{os.getpid()}"):
        shutil.rmtree(settings.UPLOADS_DIR, ignore_errors=True)
