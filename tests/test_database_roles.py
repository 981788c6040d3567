"""Least privilege: the web and worker processes connect as a role that reads and writes rows and runs
the whole site; only the tables' owner (MIGRATION_DATABASE_URL, used by `migrate`) changes the schema.
README, "Production deployment"; config/db_roles.py."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from benchmarks.models import RefreshRun, Snapshot
from firstparty.models import ImportedFile, RequestRecord, Run
from tests.firstparty_support import first_party_source, make_endpoint

from .app_role import APP_PASSWORD, APP_ROLE, current_user
from .factories import EndpointFactory, SnapshotFactory
from .refresh_support import (
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
    refresh_fixture,  # noqa: F401  (the refresh fixture)
    world_fixture,  # noqa: F401  (the world fixture)
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
ROW_RIGHTS = {"SELECT", "INSERT", "UPDATE", "DELETE"}


# --- the whole site runs as the app role -----------------------------------------------------------


@pytest.mark.usefixtures("app_role")
def test_readers_and_editors_are_served_as_the_app_role(demo_site, client, django_user_model):
    assert current_user() == APP_ROLE  # the demo site above was loaded as it, too
    for path in ["/en/", "/es/"]:
        assert client.get(path).status_code == 200, path
    article = demo_site.get_children().live().first().specific
    assert article.title in client.get(article.url).text

    django_user_model.objects.create_superuser("ana", "ana@example.com", "pw-ana-123")
    login = client.post(reverse("wagtailadmin_login"), {"username": "ana", "password": "pw-ana-123"})
    assert login.status_code == 302 and client.get(reverse("wagtailadmin_home")).status_code == 200
    article.save_revision(user=django_user_model.objects.get(username="ana")).publish()  # a page publish

    draft = SnapshotFactory(values=[(EndpointFactory(), "output_speed_median", "150")])
    client.post(reverse("wagtailsnippets_benchmarks_snapshot:publish", args=[draft.pk]))
    draft.refresh_from_db()
    assert draft.status == Snapshot.Status.PUBLISHED
    correction = client.post(reverse("wagtailsnippets_benchmarks_snapshot:correct", args=[draft.pk]))
    assert correction.status_code == 302
    fixed = Snapshot.objects.get(supersedes=draft)
    client.post(reverse("wagtailsnippets_benchmarks_snapshot:publish", args=[fixed.pk]), {"correction_note": "Re-run."})
    assert Snapshot.objects.get(pk=draft.pk).status == Snapshot.Status.SUPERSEDED
    assert Snapshot.objects.get(pk=fixed.pk).status == Snapshot.Status.PUBLISHED


@pytest.mark.usefixtures("app_role")
def test_a_refresh_and_a_records_import_run_as_the_app_role(world, fake_upstream, refresh, tmp_path):
    run = refresh(world.aa_providers)
    assert run.status == RefreshRun.Status.CHANGED, run.error
    assert run.snapshot.status == Snapshot.Status.PUBLISHED and run.snapshot.measurements.count() == 18

    make_endpoint("acme")
    batch = Run.objects.create(name="batch 1", source=first_party_source("run source"))
    records = tmp_path / "runner.jsonl"
    records.write_text(json.dumps({
        "provider": "acme", "model": "glm-5-3-flash", "started_at": "2026-09-03T09:00:00Z", "outcome": "success",
        "ttft_s": 0.5, "e2e_s": 2.5, "output_tokens": 101, "token_count": "usage",
    }) + "\n")
    call_command("import_requests", str(records), "--run", str(batch.pk), stdout=io.StringIO())  # COPY
    assert RequestRecord.objects.filter(run=batch).count() == 1 and ImportedFile.objects.filter(run=batch).exists()
    assert current_user() == APP_ROLE


# --- a real login as the app role ------------------------------------------------------------------


def login_as(user, password, dbname=None):
    settings = connection.settings_dict
    return psycopg.connect(
        dbname=dbname or settings["NAME"], user=user, password=password,
        host=settings["HOST"] or None, port=settings["PORT"] or None,
    )


def refusal(conn, statement):
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as refused:
        conn.execute(statement)
    conn.rollback()
    return str(refused.value)


def test_the_app_role_logs_in_and_may_only_read_and_write_rows():
    with login_as(APP_ROLE, APP_PASSWORD) as conn:
        conn.execute("SELECT count(*) FROM benchmarks_snapshot").fetchone()
        conn.execute("INSERT INTO benchmarks_workerheartbeat (worker, beat_at) VALUES ('probe', now())")
        conn.rollback()
        assert "must be owner of table benchmarks_snapshot" in refusal(
            conn, "ALTER TABLE benchmarks_snapshot DISABLE TRIGGER ALL"
        )
        assert "permission denied for table benchmarks_measurement" in refusal(
            conn, "TRUNCATE benchmarks_measurement CASCADE"
        )
        assert "permission denied for schema public" in refusal(conn, "CREATE TABLE scratch (id int)")
        assert "must be owner" in refusal(conn, "DROP TABLE firstparty_requestrecord")
        assert_rows_only(conn)


def assert_rows_only(conn):
    """Every table of the schema grants the app role the row rights, and nothing else."""
    rights = conn.execute(
        "SELECT table_name, array_agg(privilege_type::text) FROM information_schema.role_table_grants "
        "WHERE grantee = %s GROUP BY table_name", [APP_ROLE],
    ).fetchall()
    tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0]
    assert len(rights) == tables > 50
    assert {table: set(granted) for table, granted in rights} == {table: ROW_RIGHTS for table, _granted in rights}


# --- grant_app_role refuses what would not be least privilege ----------------------------------------


def test_grant_app_role_refuses_a_missing_or_superuser_role_and_odd_names():
    with pytest.raises(CommandError, match="Role nobody_at_all does not exist. Create it first"):
        call_command("grant_app_role", "nobody_at_all")
    with pytest.raises(CommandError, match="Role postgres is a superuser"):
        call_command("grant_app_role", "postgres")
    with pytest.raises(CommandError, match="is not a plain role name"):
        call_command("grant_app_role", 'x"; DROP TABLE benchmarks_snapshot; --')


def test_grant_app_role_takes_back_rights_beyond_rows():
    with connection.cursor() as cursor:
        cursor.execute(f"GRANT TRUNCATE, TRIGGER ON benchmarks_measurement TO {APP_ROLE}")
        out = io.StringIO()
        call_command("grant_app_role", APP_ROLE, stdout=out)
        cursor.execute(
            "SELECT has_table_privilege(%s, 'benchmarks_measurement', 'TRUNCATE'), "
            "has_table_privilege(%s, 'benchmarks_measurement', 'TRIGGER'), "
            "has_table_privilege(%s, 'benchmarks_measurement', 'INSERT')", [APP_ROLE] * 3,
        )
        assert cursor.fetchone() == (False, False, True)
    assert f"{APP_ROLE} may read and write the rows of every table" in out.getvalue()


# --- production: migrations as the owner, everything else as the app role ----------------------------

OWNER_ROLE, OWNER_PASSWORD = "llmbench_owner_test", "llmbench-owner-test"


def url(user, password, dbname):
    settings = connection.settings_dict
    return f"postgres://{user}:{password}@{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}/{dbname}"


def manage(*args, **env):
    base = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "MIGRATION_DATABASE_URL"}}
    base.update(
        DJANGO_SETTINGS_MODULE="config.settings.production", SECRET_KEY="k" + "x7#Qm2!pL9zR4vT8wY1uN6bH3jF0dS5aG" * 2,
        CELERY_BROKER_URL=os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/14"),
        REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15"), ALLOWED_HOSTS="bench.example.com", **env,
    )
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=base, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def empty_database():
    """A new database owned by an ordinary (not superuser) owner role, as in production; dropped after."""
    name = f"{connection.settings_dict['NAME']}_roles"
    with login_as(connection.settings_dict["USER"], connection.settings_dict["PASSWORD"], "postgres") as admin:
        admin.autocommit = True
        admin.execute(
            f"""DO $$ BEGIN
                CREATE ROLE {OWNER_ROLE} LOGIN PASSWORD '{OWNER_PASSWORD}';
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
            END $$"""
        )
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}" OWNER {OWNER_ROLE}')
        try:
            yield name
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_production_migrates_as_the_owner_and_runs_as_the_app_role(empty_database):
    app_url, owner_url = url(APP_ROLE, APP_PASSWORD, empty_database), url(OWNER_ROLE, OWNER_PASSWORD, empty_database)

    refused = manage("migrate", "--noinput", DATABASE_URL=app_url)
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        "CommandError: The role of DATABASE_URL may not change the schema (permission denied for schema public). "
        "Set MIGRATION_DATABASE_URL to the tables' owner and run migrate again."
    ]
    owner_as_app = manage("grant_app_role", OWNER_ROLE, DATABASE_URL=app_url, MIGRATION_DATABASE_URL=owner_url)
    assert owner_as_app.returncode == 1 and f"Role {OWNER_ROLE} owns the tables: the app role" in owner_as_app.stderr

    # README order: grant first, on an empty database; the tables migrate creates get the rights by default.
    granted = manage("grant_app_role", APP_ROLE, DATABASE_URL=app_url, MIGRATION_DATABASE_URL=owner_url)
    assert granted.returncode == 0, granted.stderr
    assert granted.stderr == ""
    migrated = manage("migrate", "--noinput", DATABASE_URL=app_url, MIGRATION_DATABASE_URL=owner_url)
    assert migrated.returncode == 0, migrated.stderr

    with login_as(OWNER_ROLE, OWNER_PASSWORD, empty_database) as owner:
        owners = owner.execute("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'").fetchall()
        assert owners == [(OWNER_ROLE,)]
        # The owner is no superuser: the history guards hold against it too.
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="holds history and cannot be truncated"):
            owner.execute("TRUNCATE benchmarks_measurement CASCADE")
        owner.rollback()
        assert "permission denied to set parameter" in refusal(owner, "SET session_replication_role = replica")
    with login_as(APP_ROLE, APP_PASSWORD, empty_database) as app:
        assert_rows_only(app)  # granted before the tables existed: the owner's default privileges
        app.execute("INSERT INTO benchmarks_workerheartbeat (worker, beat_at) VALUES ('probe', now())")
        assert "must be owner of table benchmarks_snapshot" in refusal(
            app, "ALTER TABLE benchmarks_snapshot DISABLE TRIGGER benchmarks_snapshot_history_guard"
        )
