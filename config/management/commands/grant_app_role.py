"""python manage.py grant_app_role ROLE: make ROLE the web and worker processes' database role."""

from django.core.management.base import BaseCommand
from django.db import DEFAULT_DB_ALIAS, connections, transaction

from config.db_roles import can_create_in_schema, check_app_role, grant_statements, use_owner_connection


class Command(BaseCommand):
    help = (
        "Grant ROLE what the web and worker processes need (SELECT, INSERT, UPDATE, DELETE on every table, "
        "now and as later migrations add them) and nothing more. Run as the tables' owner: with "
        "MIGRATION_DATABASE_URL set, that connection is used."
    )

    def add_arguments(self, parser):
        parser.add_argument("role", help="the role of DATABASE_URL, e.g. llmbench_app (create it first)")

    def handle(self, role, **options):
        use_owner_connection()
        with transaction.atomic(), connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            owner, database, schema = check_app_role(cursor, role)
            for statement in grant_statements(role, database, schema):
                cursor.execute(statement)
            if can_create_in_schema(cursor, role, schema):
                self.stderr.write(
                    f"Warning: {role} can still create tables in schema {schema}, as every role can there: as the "
                    f"schema's owner, run REVOKE CREATE ON SCHEMA {schema} FROM PUBLIC."
                )
        self.stdout.write(
            f"{role} may read and write the rows of every table in {database}.{schema}, including tables {owner} "
            f"creates later; it cannot change the schema, disable triggers or truncate."
        )
