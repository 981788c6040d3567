"""`migrate` connects as the tables' owner (MIGRATION_DATABASE_URL) when that is set.

The web and worker processes' role (DATABASE_URL) may only read and write rows, so it cannot change the
schema. Swapping the one connection, rather than a second database alias, keeps every step of a
migration (schema and data) and wagtail_modeltranslation's column sync on the same connection.
"""

import contextlib
import io

from django.core.management.base import CommandError
from django.db import DEFAULT_DB_ALIAS, DatabaseError
from psycopg.errors import InsufficientPrivilege
from wagtail_modeltranslation.management.commands.migrate_translation import Command as TranslationMigrate

from config.db_roles import use_owner_connection


def refused_privilege(exc):
    """The InsufficientPrivilege behind a Django error (wrapped, or re-raised as MigrationSchemaMissing)."""
    while exc is not None:
        if isinstance(exc, InsufficientPrivilege):
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


class Command(TranslationMigrate):
    def handle(self, *args, **options):
        as_owner = options["database"] == DEFAULT_DB_ALIAS and use_owner_connection()
        # wagtail_modeltranslation's column sync print()s its SQL whatever the verbosity: -v 0 means quiet.
        quiet = contextlib.redirect_stdout(io.StringIO()) if options["verbosity"] == 0 else contextlib.nullcontext()
        try:
            with quiet:
                return super().handle(*args, **options)
        except DatabaseError as exc:
            refused = refused_privilege(exc)
            if as_owner or refused is None:
                raise
            raise CommandError(
                f"The role of DATABASE_URL may not change the schema ({str(refused).strip().splitlines()[0]}). "
                "Set MIGRATION_DATABASE_URL to the tables' owner and run migrate again."
            ) from exc
