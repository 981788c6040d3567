"""Rows added to a published or superseded snapshot are refused once per statement, not once per row.

0006 checked every inserted measurement and price with a row trigger that looked up its snapshot:
one lookup per row, a quarter of the database's time when an import COPYs 20,000 measurements that
all belong to one draft snapshot. An AFTER INSERT statement trigger sees the statement's rows as a
transition table and looks their snapshots up in one query; a refusal still aborts the whole
statement, so nothing is written. Updates and deletes keep the row trigger of 0006 (they are rare,
and it checks the row as it was as well as it will be).
"""

from importlib import import_module

from django.db import migrations

# SQLite (`make run`) has no history triggers to change.
PostgresOnlyRunSQL = import_module("benchmarks.migrations.0006_history_immutable").PostgresOnlyRunSQL

FORWARD = """
CREATE OR REPLACE FUNCTION benchmarks_snapshot_rows_insert_guard() RETURNS trigger AS $$
DECLARE
    refused record;
BEGIN
    SELECT s.id, s.status INTO refused
    FROM benchmarks_snapshot s
    WHERE s.id IN (SELECT snapshot_id FROM inserted) AND s.status <> 'draft'
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% row cannot be added to snapshot %: the snapshot is %; publish a correction instead',
            TG_TABLE_NAME, refused.id, refused.status USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER benchmarks_measurement_history_guard ON benchmarks_measurement;
CREATE TRIGGER benchmarks_measurement_history_guard
    BEFORE UPDATE OR DELETE ON benchmarks_measurement
    FOR EACH ROW EXECUTE FUNCTION benchmarks_snapshot_rows_guard();
CREATE TRIGGER benchmarks_measurement_insert_guard
    AFTER INSERT ON benchmarks_measurement REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION benchmarks_snapshot_rows_insert_guard();

DROP TRIGGER benchmarks_price_history_guard ON benchmarks_price;
CREATE TRIGGER benchmarks_price_history_guard
    BEFORE UPDATE OR DELETE ON benchmarks_price
    FOR EACH ROW EXECUTE FUNCTION benchmarks_snapshot_rows_guard();
CREATE TRIGGER benchmarks_price_insert_guard
    AFTER INSERT ON benchmarks_price REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION benchmarks_snapshot_rows_insert_guard();
"""

BACKWARD = """
DROP TRIGGER benchmarks_price_insert_guard ON benchmarks_price;
DROP TRIGGER benchmarks_price_history_guard ON benchmarks_price;
CREATE TRIGGER benchmarks_price_history_guard
    BEFORE INSERT OR UPDATE OR DELETE ON benchmarks_price
    FOR EACH ROW EXECUTE FUNCTION benchmarks_snapshot_rows_guard();

DROP TRIGGER benchmarks_measurement_insert_guard ON benchmarks_measurement;
DROP TRIGGER benchmarks_measurement_history_guard ON benchmarks_measurement;
CREATE TRIGGER benchmarks_measurement_history_guard
    BEFORE INSERT OR UPDATE OR DELETE ON benchmarks_measurement
    FOR EACH ROW EXECUTE FUNCTION benchmarks_snapshot_rows_guard();

DROP FUNCTION benchmarks_snapshot_rows_insert_guard();
"""


class Migration(migrations.Migration):
    dependencies = [("benchmarks", "0011_content_version")]

    operations = [PostgresOnlyRunSQL(FORWARD, BACKWARD)]
