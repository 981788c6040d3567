"""TRUNCATE of a history table is refused, whoever runs it, the tables' owner included.

The triggers of 0006 are row triggers, and TRUNCATE fires none: `TRUNCATE benchmarks_measurement
CASCADE` emptied published history. A statement-level BEFORE TRUNCATE trigger on each history table
refuses it, and fires for every table a CASCADE reaches as well. The web and worker processes'
role has no TRUNCATE privilege either (README, "Production deployment"); this guard is what stops the
owner. Only a superuser can step around it (`session_replication_role = replica`, which the test
suite's flush between transactional tests uses).

The first-party tables (records, runs, their files and series periods) get the same guard in
firstparty's migration, with this function.
"""

from importlib import import_module

from django.db import migrations

PostgresOnlyRunSQL = import_module("benchmarks.migrations.0006_history_immutable").PostgresOnlyRunSQL

FUNCTION = """
CREATE OR REPLACE FUNCTION benchmarks_history_truncate_guard() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% holds history and cannot be truncated; published data changes only through a correction',
        TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
"""

TABLES = ["benchmarks_snapshot", "benchmarks_measurement", "benchmarks_price", "benchmarks_refreshrun"]


def guard(tables):
    return "".join(
        f"CREATE TRIGGER {table}_truncate_guard BEFORE TRUNCATE ON {table}\n"
        f"    FOR EACH STATEMENT EXECUTE FUNCTION benchmarks_history_truncate_guard();\n"
        for table in tables
    )


def unguard(tables):
    return "".join(f"DROP TRIGGER IF EXISTS {table}_truncate_guard ON {table};\n" for table in tables)


class Migration(migrations.Migration):
    dependencies = [("benchmarks", "0014_snapshot_payload_lz4")]

    operations = [
        PostgresOnlyRunSQL(
            FUNCTION + guard(TABLES),
            unguard(TABLES) + "DROP FUNCTION IF EXISTS benchmarks_history_truncate_guard();",
        )
    ]
