"""History cannot be rewritten, whatever writes to the database.

Snapshot.save()/delete() already refuse to change published data, but QuerySet.update(), .delete(),
bulk operations and raw SQL bypass them. These PostgreSQL triggers refuse, in the database itself:

- any change to a published or superseded snapshot, except the two transitions the app makes:
  draft -> anything (publishing sets status and published_at; a correction also sets supersedes and
  correction_note while still a draft) and published -> superseded with nothing else changed
  (Snapshot.publish_correction); a save that changes nothing is allowed;
- deleting a published or superseded snapshot;
- inserting, changing or deleting a measurement or a price of a published or superseded snapshot.

TRUNCATE (test database flushes) does not fire row triggers. SQLite (`make run` without a database
URL) gets no triggers: it migrates, and the model methods still guard the data.
"""

from django.db import migrations

GUARD_SNAPSHOT = """
CREATE OR REPLACE FUNCTION benchmarks_snapshot_history_guard() RETURNS trigger AS $$
DECLARE
    status_only benchmarks_snapshot%ROWTYPE;
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.status <> 'draft' THEN
            RAISE EXCEPTION 'snapshot % is % and cannot be deleted; publish a correction instead', OLD.id, OLD.status
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN OLD;
    END IF;
    IF OLD.status = 'draft' OR NEW IS NOT DISTINCT FROM OLD THEN
        RETURN NEW;
    END IF;
    IF OLD.status = 'published' AND NEW.status = 'superseded' THEN
        status_only := NEW;
        status_only.status := OLD.status;
        IF status_only IS NOT DISTINCT FROM OLD THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION 'snapshot % is % and cannot be changed; publish a correction instead', OLD.id, OLD.status
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER benchmarks_snapshot_history_guard
    BEFORE UPDATE OR DELETE ON benchmarks_snapshot
    FOR EACH ROW EXECUTE FUNCTION benchmarks_snapshot_history_guard();
"""

# Measurements and prices: the row as it was (UPDATE, DELETE) and as it will be (INSERT, UPDATE) must
# both belong to a draft snapshot (or, for a price, to none).
GUARD_ROWS = """
CREATE OR REPLACE FUNCTION benchmarks_snapshot_rows_guard() RETURNS trigger AS $$
DECLARE
    snapshot_status varchar;
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.snapshot_id IS NOT NULL THEN
        SELECT status INTO snapshot_status FROM benchmarks_snapshot WHERE id = OLD.snapshot_id;
        IF snapshot_status <> 'draft' THEN
            RAISE EXCEPTION '% row of snapshot % cannot be changed: the snapshot is %; publish a correction instead',
                TG_TABLE_NAME, OLD.snapshot_id, snapshot_status USING ERRCODE = 'integrity_constraint_violation';
        END IF;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.snapshot_id IS NOT NULL THEN
        SELECT status INTO snapshot_status FROM benchmarks_snapshot WHERE id = NEW.snapshot_id;
        IF snapshot_status <> 'draft' THEN
            RAISE EXCEPTION '% row cannot be added to snapshot %: the snapshot is %; publish a correction instead',
                TG_TABLE_NAME, NEW.snapshot_id, snapshot_status USING ERRCODE = 'integrity_constraint_violation';
        END IF;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER benchmarks_measurement_history_guard
    BEFORE INSERT OR UPDATE OR DELETE ON benchmarks_measurement
    FOR EACH ROW EXECUTE FUNCTION benchmarks_snapshot_rows_guard();

CREATE TRIGGER benchmarks_price_history_guard
    BEFORE INSERT OR UPDATE OR DELETE ON benchmarks_price
    FOR EACH ROW EXECUTE FUNCTION benchmarks_snapshot_rows_guard();
"""

DROP = """
DROP TRIGGER IF EXISTS benchmarks_price_history_guard ON benchmarks_price;
DROP TRIGGER IF EXISTS benchmarks_measurement_history_guard ON benchmarks_measurement;
DROP FUNCTION IF EXISTS benchmarks_snapshot_rows_guard();
DROP TRIGGER IF EXISTS benchmarks_snapshot_history_guard ON benchmarks_snapshot;
DROP FUNCTION IF EXISTS benchmarks_snapshot_history_guard();
"""


class PostgresOnlyRunSQL(migrations.RunSQL):
    """RunSQL that does nothing on another database (SQLite for `make run`)."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class Migration(migrations.Migration):
    dependencies = [("benchmarks", "0005_snapshot_checks_indexes")]

    operations = [PostgresOnlyRunSQL(GUARD_SNAPSHOT + GUARD_ROWS, DROP)]
