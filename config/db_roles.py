"""Two database roles in production: the tables' owner runs migrations, the web and worker processes
connect as a role that may only read and write rows (README, "Production deployment").

The owner's address is MIGRATION_DATABASE_URL and only `migrate` and `grant_app_role` use it. An app
role cannot ALTER a table (so it cannot disable the history triggers), TRUNCATE, or drop anything; the
history triggers (benchmarks/migrations) then hold against whatever it runs.
"""

import re

from django.conf import settings
from django.core.management.base import CommandError
from django.db import DEFAULT_DB_ALIAS, connections

ROLE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
# What the app role may do to rows; no TRUNCATE, REFERENCES or TRIGGER, and no ownership.
TABLE_RIGHTS = "SELECT, INSERT, UPDATE, DELETE"
SEQUENCE_RIGHTS = "USAGE, SELECT"


def use_owner_connection(alias=DEFAULT_DB_ALIAS):
    """Connect `alias` as the owner (MIGRATION_DATABASE_URL) for the rest of this process.

    Returns False, changing nothing, when MIGRATION_DATABASE_URL is not set. The whole command then
    runs on one connection, so a migration's data step never waits on a second one holding its locks.
    """
    owner = settings.MIGRATION_DATABASE
    if not owner:
        return False
    connection = connections[alias]
    connection.close()  # the next query connects with the owner's settings
    for key in ("NAME", "USER", "PASSWORD", "HOST", "PORT"):
        connection.settings_dict[key] = owner[key]
    connection.settings_dict["OPTIONS"] = {**connection.settings_dict.get("OPTIONS", {}), **owner.get("OPTIONS", {})}
    return True


def grant_statements(role, database, schema):
    """What makes `role` an app role: rows of every table of `schema`, now and later, and nothing else.

    Run as the owner: ALTER DEFAULT PRIVILEGES covers the tables and sequences that role creates
    later, i.e. what later migrations add. Earlier grants are revoked first, so running it again
    brings a role that had more (TRUNCATE, say) down to this.
    """
    role, database, schema = (connections[DEFAULT_DB_ALIAS].ops.quote_name(name) for name in (role, database, schema))
    return [
        f"GRANT CONNECT ON DATABASE {database} TO {role}",
        f"REVOKE CREATE ON SCHEMA {schema} FROM {role}",
        f"GRANT USAGE ON SCHEMA {schema} TO {role}",
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {role}",
        f"GRANT {TABLE_RIGHTS} ON ALL TABLES IN SCHEMA {schema} TO {role}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM {role}",
        f"GRANT {SEQUENCE_RIGHTS} ON ALL SEQUENCES IN SCHEMA {schema} TO {role}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA {schema} REVOKE ALL ON TABLES FROM {role}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA {schema} GRANT {TABLE_RIGHTS} ON TABLES TO {role}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA {schema} REVOKE ALL ON SEQUENCES FROM {role}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA {schema} GRANT {SEQUENCE_RIGHTS} ON SEQUENCES TO {role}",
    ]


def check_app_role(cursor, role):
    """Refuse a role that would not be least privilege: missing, a superuser, the owner, or a member
    of the owner (it could SET ROLE to it). Returns (owner, database, schema)."""
    if not ROLE_NAME.match(role):
        raise CommandError(f"{role!r} is not a plain role name: use lower-case letters, digits and underscores.")
    cursor.execute(
        "SELECT current_user, current_database(), current_schema(), r.rolsuper, pg_has_role(%s, current_user, 'MEMBER')"
        " FROM pg_roles r WHERE r.rolname = %s",
        [role, role],
    )
    found = cursor.fetchone()
    if found is None:
        raise CommandError(
            f"Role {role} does not exist. Create it first, as a database administrator: "
            f"CREATE ROLE {role} LOGIN PASSWORD '…';"
        )
    owner, database, schema, superuser, member_of_owner = found
    if superuser:
        raise CommandError(f"Role {role} is a superuser: the app role must be an ordinary role.")
    if member_of_owner:
        whose = "owns the tables" if role == owner else f"is a member of {owner}, which owns the tables"
        raise CommandError(
            f"Role {role} {whose}: the app role must be another role (this command runs as the owner, through "
            f"MIGRATION_DATABASE_URL)."
        )
    return owner, database, schema


def can_create_in_schema(cursor, role, schema):
    """PostgreSQL before 15 lets every role create tables in `public` (through PUBLIC); only the
    schema's owner can take that back."""
    cursor.execute("SELECT has_schema_privilege(%s, %s, 'CREATE')", [role, schema])
    return cursor.fetchone()[0]
