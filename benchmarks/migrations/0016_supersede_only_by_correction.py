"""A published snapshot becomes superseded only when a published correction of it exists.

0006 let `published -> superseded` through whenever nothing else changed, so
`UPDATE benchmarks_snapshot SET status = 'superseded'` took a snapshot off the pages with no
correction to replace it, and superseded is final. Now the database also requires a published
snapshot whose `supersedes` is this one: Snapshot.publish_correction publishes the correction first
and supersedes the original after it, in one transaction. Every other change stays refused as before.
"""

from importlib import import_module

from django.db import migrations

history = import_module("benchmarks.migrations.0006_history_immutable")

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
            IF EXISTS (SELECT 1 FROM benchmarks_snapshot WHERE supersedes_id = OLD.id AND status = 'published') THEN
                RETURN NEW;
            END IF;
            RAISE EXCEPTION 'snapshot % cannot be superseded: no published correction of it exists; publish a correction instead',
                OLD.id USING ERRCODE = 'integrity_constraint_violation';
        END IF;
    END IF;
    RAISE EXCEPTION 'snapshot % is % and cannot be changed; publish a correction instead', OLD.id, OLD.status
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
"""

# 0006's function as it was (its text up to the trigger, which stays).
PREVIOUS = history.GUARD_SNAPSHOT.split("CREATE TRIGGER")[0]


class Migration(migrations.Migration):
    dependencies = [("benchmarks", "0015_history_truncate_guard")]

    operations = [history.PostgresOnlyRunSQL(GUARD_SNAPSHOT, PREVIOUS)]
