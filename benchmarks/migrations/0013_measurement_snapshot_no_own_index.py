"""Measurement.snapshot loses its own index: the unique (snapshot, endpoint, metric) index starts with
it and serves every lookup by snapshot, and the second index cost one more insert per imported row.

Only the index is dropped; AlterField alone would also drop and re-add the foreign key, which
re-validates it over the whole table.
"""

import django.db.models.deletion
import modelcluster.fields
from django.db import migrations

INDEX = "benchmarks_measurement_snapshot_id_f79b5b5e"


class Migration(migrations.Migration):

    dependencies = [
        ('benchmarks', '0012_rows_insert_guard_per_statement'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='measurement',
                    name='snapshot',
                    field=modelcluster.fields.ParentalKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='measurements', to='benchmarks.snapshot', verbose_name='snapshot'),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{INDEX}"',
                    f'CREATE INDEX "{INDEX}" ON "benchmarks_measurement" ("snapshot_id")',
                ),
            ],
        ),
    ]
