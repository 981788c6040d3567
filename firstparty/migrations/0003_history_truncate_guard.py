"""TRUNCATE of the first-party history is refused: the request records behind published aggregates,
the runs (and the endpoints each measured), the runners' files kept verbatim, and which snapshot
aggregates which period of a series. Retention deletes old records row by row, which stays possible."""

from importlib import import_module

from django.db import migrations

history = import_module("benchmarks.migrations.0015_history_truncate_guard")

TABLES = [
    "firstparty_run",
    "firstparty_run_endpoints",
    "firstparty_importedfile",
    "firstparty_requestrecord",
    "firstparty_seriessnapshot",
]


class Migration(migrations.Migration):
    dependencies = [("firstparty", "0002_run_stopped_with_problem"), ("benchmarks", "0015_history_truncate_guard")]

    operations = [history.PostgresOnlyRunSQL(history.guard(TABLES), history.unguard(TABLES))]
