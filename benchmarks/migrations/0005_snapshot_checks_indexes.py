"""Snapshot.checksum gets one meaning (SHA-256 of the stored payload); a refresh's comparison of placed
rows moves to rows_checksum. A unique constraint stops duplicate imports, indexes serve the page
queries, and a price list's correction may repeat its original's days.
"""

import hashlib
from decimal import Decimal

import django.core.validators
from django.db import migrations, models


def one_checksum_meaning(apps, schema_editor):
    """Refreshes stored their rows checksum in `checksum`; keep it as rows_checksum and store the
    payload's SHA-256 in `checksum`, as everything else does (runs before the history trigger)."""
    Snapshot = apps.get_model("benchmarks", "Snapshot")
    for pk, raw_payload, checksum in Snapshot.objects.values_list("pk", "raw_payload", "checksum").iterator():
        payload = hashlib.sha256(raw_payload.encode()).hexdigest() if raw_payload else ""
        if checksum != payload:
            # Only a refresh's rows checksum is ever compared; an import's old byte hash there is inert.
            Snapshot.objects.filter(pk=pk).update(checksum=payload, rows_checksum=checksum)


class Migration(migrations.Migration):

    dependencies = [
        ('benchmarks', '0004_source_licence_ratelimit'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='price',
            name='price_one_per_endpoint_day_source',
        ),
        migrations.AddField(
            model_name='snapshot',
            name='review_notes',
            field=models.TextField(blank=True, help_text='Implausible values, large jumps or missing fields found when this snapshot was recorded.', verbose_name='why it is held for review'),
        ),
        migrations.AddField(
            model_name='snapshot',
            name='rows_checksum',
            field=models.CharField(blank=True, editable=False, help_text='SHA-256 of the upstream rows as placed on our endpoints (refreshes only).', max_length=64, verbose_name='rows checksum'),
        ),
        migrations.RunPython(one_checksum_meaning, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='snapshot',
            name='checksum',
            field=models.CharField(blank=True, db_index=True, editable=False, help_text='SHA-256 of the raw payload as stored.', max_length=64, verbose_name='checksum'),
        ),
        migrations.AddIndex(
            model_name='snapshot',
            index=models.Index(fields=['measured_at'], name='snapshot_measured_at'),
        ),
        migrations.AddIndex(
            model_name='snapshot',
            index=models.Index(fields=['source', 'status', 'measured_at'], name='snapshot_source_status_time'),
        ),
        migrations.AddConstraint(
            model_name='price',
            constraint=models.UniqueConstraint(fields=('endpoint', 'effective_date', 'source', 'snapshot'), name='price_one_per_endpoint_day_source'),
        ),
        migrations.AddConstraint(
            model_name='price',
            constraint=models.UniqueConstraint(condition=models.Q(('snapshot__isnull', True)), fields=('endpoint', 'effective_date', 'source'), name='price_one_per_endpoint_day_source_loose'),
        ),
        migrations.AddConstraint(
            model_name='snapshot',
            constraint=models.UniqueConstraint(condition=models.Q(models.Q(('checksum', ''), _negated=True), ('supersedes__isnull', True)), fields=('source', 'measured_at', 'checksum'), name='snapshot_one_per_source_time_payload'),
        ),
        migrations.AlterField(
            model_name='refreshconfig',
            name='max_price_jump_factor',
            field=models.DecimalField(decimal_places=2, default=Decimal('3'), help_text='A refresh is held for review (a draft, never published automatically) when a price rises or falls by more than this factor against the current price.', max_digits=6, validators=[django.core.validators.MinValueValidator(Decimal('1.01'))], verbose_name='largest accepted price change (factor)'),
        ),
        migrations.AlterField(
            model_name='refreshrun',
            name='status',
            field=models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('changed', 'New snapshot'), ('held', 'Held for review'), ('unchanged', 'Unchanged'), ('failed', 'Failed')], db_index=True, default='queued', max_length=12, verbose_name='status'),
        ),
    ]
