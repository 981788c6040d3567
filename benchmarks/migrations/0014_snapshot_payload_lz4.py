"""Snapshot.raw_payload is compressed with lz4 instead of PostgreSQL's default pglz.

An import stores its whole file (600 KB for 20,000 rows) and pglz took ~12 ms of the insert; lz4
takes a third of that for the same size on disk. Only new values are compressed so; stored ones stay
as they are and read the same. Skipped where the server was built without lz4, and on SQLite.
"""

from importlib import import_module

from django.db import migrations

PostgresOnlyRunSQL = import_module("benchmarks.migrations.0006_history_immutable").PostgresOnlyRunSQL


def set_compression(method):
    return f"""
DO $$ BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND '{method}' = ANY(enumvals)) THEN
        ALTER TABLE benchmarks_snapshot ALTER COLUMN raw_payload SET COMPRESSION {method};
    END IF;
END $$;
"""


class Migration(migrations.Migration):
    dependencies = [("benchmarks", "0013_measurement_snapshot_no_own_index")]

    operations = [PostgresOnlyRunSQL(set_compression("lz4"), set_compression("pglz"))]
