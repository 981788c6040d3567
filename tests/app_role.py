"""The web and worker processes' database role, on the test database: created when missing and given
exactly what `grant_app_role` (README, "Production deployment") grants.

History tests run as it with SET LOCAL ROLE on the test's own connection: PostgreSQL checks every
privilege against that role from then on, and the test's data stays visible, since it is one
transaction (ended, with the role, by the test's rollback). The suite's login (postgres) owns the
tables, as the migrating owner does in production.
"""

import io
from contextlib import contextmanager

from django.core.management import call_command
from django.db import connection

APP_ROLE = "llmbench_app_test"
# Trust authentication ignores it; a server that asks for passwords gets this one.
APP_PASSWORD = "llmbench-app-test"


def ensure_app_role():
    """Create the role once per cluster (roles are shared by every database of the server, and other
    test runs may create it at the same moment), then grant it on this test database."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""DO $$ BEGIN
                CREATE ROLE {APP_ROLE} LOGIN PASSWORD '{APP_PASSWORD}';
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
            END $$"""
        )
    call_command("grant_app_role", APP_ROLE, stdout=io.StringIO())


def set_role(role):
    assert connection.in_atomic_block, "SET LOCAL ROLE needs the test's transaction"
    with connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL ROLE {role}")


def current_user():
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        return cursor.fetchone()[0]


@contextmanager
def as_owner():
    """A step that is the owner's job (ANALYZE), or that shows what even the owner cannot do."""
    role = current_user()
    with connection.cursor() as cursor:
        cursor.execute("RESET ROLE")
    try:
        yield
    finally:
        set_role(role)
