"""History cannot be rewritten: PostgreSQL itself refuses changes to published data, whatever the
code path (QuerySet.update/delete, bulk writes, raw SQL); the transitions the app needs still work;
one payload per source and moment; the page queries have indexes.

Every test here runs as the web and worker processes' database role (tests/app_role.py), which may
write rows but not disable the triggers that do the refusing."""

import datetime
from decimal import Decimal

import pytest
from django.db import IntegrityError, ProgrammingError, connection, transaction
from django.utils import timezone

from benchmarks.models import Measurement, Price, Snapshot, Source, payload_checksum

from .app_role import APP_ROLE, as_owner
from .factories import EndpointFactory, SnapshotFactory, SourceFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("app_role")]

HISTORY_TABLES = [
    "benchmarks_snapshot", "benchmarks_measurement", "benchmarks_price", "benchmarks_refreshrun",
    "firstparty_run", "firstparty_run_endpoints", "firstparty_importedfile", "firstparty_requestrecord",
    "firstparty_seriessnapshot",
]


@pytest.fixture
def endpoint():
    return EndpointFactory()


@pytest.fixture
def published(endpoint):
    snapshot = SnapshotFactory(values=[(endpoint, "output_speed_median", "150.4")])
    Price.objects.create(
        endpoint=endpoint, input_per_m=Decimal("2.10"), output_per_m=Decimal("6.60"), currency="USD",
        effective_date=timezone.localdate(), source=snapshot.source, snapshot=snapshot,
    )
    snapshot.publish()
    return snapshot


def refused(callable_, *args, error=IntegrityError, **kwargs):
    """Run a write that the database must refuse; return the error text."""
    with pytest.raises(error) as raised, transaction.atomic():
        callable_(*args, **kwargs)
    return str(raised.value)


def raw(sql, params):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def stored(snapshot):
    return Snapshot.objects.filter(pk=snapshot.pk).values_list("status", "workload", "measured_at").get()


# --- snapshots ------------------------------------------------------------------------------------


def test_published_snapshot_cannot_be_changed_by_queryset_update_or_raw_sql(published):
    before = stored(published)
    message = refused(Snapshot.objects.filter(pk=published.pk).update, workload="rewritten")
    assert f"snapshot {published.pk} is published and cannot be changed" in message
    refused(Snapshot.objects.filter(pk=published.pk).update, status="draft")
    refused(
        Snapshot.objects.filter(pk=published.pk).update,
        measured_at=published.measured_at - datetime.timedelta(days=1),
    )
    refused(raw, "UPDATE benchmarks_snapshot SET raw_payload = 'x' WHERE id = %s", [published.pk])
    # Superseded is final too, and a superseding step may not smuggle in other changes.
    refused(Snapshot.objects.filter(pk=published.pk).update, status="superseded", workload="rewritten")
    assert stored(published) == before


def test_the_app_role_cannot_switch_the_guards_off(published):
    """Disabling or dropping a trigger needs the table's owner, which the app's role is not."""
    for statement in [
        "ALTER TABLE benchmarks_snapshot DISABLE TRIGGER ALL",
        "ALTER TABLE benchmarks_measurement DISABLE TRIGGER benchmarks_measurement_history_guard",
        "DROP TRIGGER benchmarks_snapshot_history_guard ON benchmarks_snapshot",
        "ALTER TABLE benchmarks_price OWNER TO " + APP_ROLE,
    ]:
        assert "must be owner of" in refused(raw, statement, [], error=ProgrammingError), statement
    # Nor step around them as replication does: that needs a superuser.
    assert "permission denied to set parameter" in refused(
        raw, "SET LOCAL session_replication_role = replica", [], error=ProgrammingError
    )
    assert "cannot be changed" in refused(raw, "UPDATE benchmarks_measurement SET value = 1 WHERE snapshot_id = %s",
                                          [published.pk])


def test_a_published_snapshot_is_superseded_only_by_publishing_a_correction(published):
    """Superseded takes a snapshot off the pages for good: not without a published correction of it."""
    message = refused(raw, "UPDATE benchmarks_snapshot SET status = 'superseded' WHERE id = %s", [published.pk])
    assert f"snapshot {published.pk} cannot be superseded: no published correction of it exists" in message
    refused(Snapshot.objects.filter(pk=published.pk).update, status="superseded")
    # A correction still being prepared is not one readers have: it may never be published.
    prepared = SnapshotFactory(source=published.source)
    Snapshot.objects.filter(pk=prepared.pk).update(supersedes=published, correction_note="prepared")
    refused(raw, "UPDATE benchmarks_snapshot SET status = 'superseded' WHERE id = %s", [published.pk])
    assert stored(published)[0] == "published"

    prepared.refresh_from_db()
    published.publish_correction(prepared, "Re-measured.")
    assert stored(published)[0] == "superseded" and stored(prepared)[0] == "published"
    # Final: neither back to the pages nor to a draft.
    refused(raw, "UPDATE benchmarks_snapshot SET status = 'published' WHERE id = %s", [published.pk])
    refused(raw, "UPDATE benchmarks_snapshot SET status = 'draft' WHERE id = %s", [published.pk])


def test_published_snapshot_cannot_be_deleted_by_queryset_or_raw_sql(published):
    assert "cannot be deleted" in refused(raw, "DELETE FROM benchmarks_snapshot WHERE id = %s", [published.pk])
    refused(Snapshot.objects.filter(pk=published.pk)._raw_delete, "default")
    assert Snapshot.objects.filter(pk=published.pk).exists()


def test_measurements_of_a_published_snapshot_cannot_change(published, endpoint):
    measurement = published.measurements.get()
    assert "cannot be changed" in refused(
        Measurement.objects.filter(pk=measurement.pk).update, value=Decimal("999")
    )
    refused(Measurement.objects.filter(pk=measurement.pk).delete)
    refused(raw, "UPDATE benchmarks_measurement SET value = 1 WHERE snapshot_id = %s", [published.pk])
    refused(raw, "DELETE FROM benchmarks_measurement WHERE snapshot_id = %s", [published.pk])
    assert "cannot be added" in refused(
        Measurement.objects.bulk_create,
        [Measurement(snapshot=published, endpoint=endpoint, metric="ttft_median", value=Decimal("1"))],
    )
    # Moving a draft's row into published history is a change to that history as well.
    draft_row = SnapshotFactory(values=[(endpoint, "ttft_p95", "2")]).measurements.get()
    refused(Measurement.objects.filter(pk=draft_row.pk).update, snapshot=published)
    assert list(published.measurements.values_list("metric", "value")) == [
        ("output_speed_median", Decimal("150.400000"))
    ]


def copy_rows(rows):
    # psycopg's copy() is not wrapped by Django: wrap_database_errors gives the IntegrityError others get.
    with connection.wrap_database_errors, connection.cursor() as cursor, cursor.copy(
        "COPY benchmarks_measurement (snapshot_id, endpoint_id, metric, value) FROM STDIN"
    ) as copy:
        for row in rows:
            copy.write_row(row)


def test_rows_are_refused_per_statement_however_many_and_whoever_writes_them(published, endpoint):
    """Inserts are checked once per statement: a COPY or a multi-row INSERT that adds even one row to
    published history is refused whole, draft rows included."""
    draft = SnapshotFactory()
    message = refused(copy_rows, [(published.pk, endpoint.pk, "ttft_median", "1")])
    assert f"benchmarks_measurement row cannot be added to snapshot {published.pk}" in message
    assert "the snapshot is published" in message
    mixed = [(draft.pk, endpoint.pk, "ttft_median", "1"), (published.pk, endpoint.pk, "ttft_p95", "2")]
    refused(copy_rows, mixed)
    refused(
        Measurement.objects.bulk_create,
        [Measurement(snapshot_id=pk, endpoint=endpoint, metric=metric, value=Decimal(value))
         for pk, _endpoint, metric, value in mixed],
    )
    assert not draft.measurements.exists()
    assert published.measurements.count() == 1
    assert "benchmarks_price row cannot be added" in refused(
        Price.objects.bulk_create,
        [Price(endpoint=endpoint, input_per_m=Decimal("1"), output_per_m=Decimal("1"), currency="USD",
               effective_date=timezone.localdate() - datetime.timedelta(days=1), source=published.source,
               snapshot=published)],
    )
    copy_rows([(draft.pk, endpoint.pk, "ttft_median", "1")])  # a draft takes rows however they come
    assert draft.measurements.count() == 1


def test_prices_of_a_published_snapshot_cannot_change(published):
    price = published.prices.get()
    refused(Price.objects.filter(pk=price.pk).update, input_per_m=Decimal("0.5"), output_per_m=Decimal("0.5"))
    refused(Price.objects.filter(pk=price.pk).delete)
    refused(raw, "UPDATE benchmarks_price SET output_per_m = 0.5 WHERE id = %s", [price.pk])
    refused(Price.objects.filter(pk=price.pk).update, snapshot=None)  # detaching it from history
    price.refresh_from_db()
    assert (price.input_per_m, price.output_per_m) == (Decimal("2.10"), Decimal("6.60"))


def test_drafts_stay_editable_and_the_app_transitions_still_work(endpoint):
    draft = SnapshotFactory(values=[(endpoint, "output_speed_median", "100")])
    Snapshot.objects.filter(pk=draft.pk).update(workload="edited while a draft")
    Measurement.objects.filter(snapshot=draft).update(value=Decimal("101"))
    draft.refresh_from_db()
    draft.publish()  # draft -> published
    draft.save()  # a save that changes nothing is harmless
    correction = SnapshotFactory(source=draft.source, values=[(endpoint, "output_speed_median", "102")])
    draft.publish_correction(correction, "Speed re-measured.")  # published -> superseded, draft -> published
    assert stored(draft)[0] == "superseded"
    assert Snapshot.objects.get(pk=correction.pk).supersedes_id == draft.pk
    throwaway = SnapshotFactory(values=[(endpoint, "ttft_median", "1")])
    throwaway.delete()  # drafts (and their measurements) may be deleted
    assert not Snapshot.objects.filter(pk=throwaway.pk).exists()


def test_no_history_table_can_be_truncated_not_even_by_its_owner(published):
    """TRUNCATE fires no row trigger. The app's role may not truncate at all; the owner is stopped
    by each history table's statement guard, which a CASCADE from another table reaches too."""
    raw("SET CONSTRAINTS ALL IMMEDIATE", [])  # TRUNCATE refuses tables with checks pending from this test
    for table in HISTORY_TABLES:
        message = refused(raw, f"TRUNCATE {table} CASCADE", [], error=ProgrammingError)
        assert f"permission denied for table {table}" in message
    with as_owner():
        for table in HISTORY_TABLES:
            message = refused(raw, f"TRUNCATE {table} CASCADE", [])
            assert f"{table} holds history and cannot be truncated" in message
        assert "holds history and cannot be truncated" in refused(raw, "TRUNCATE benchmarks_source CASCADE", [])
    assert published.measurements.count() == 1 and published.prices.count() == 1
    assert stored(published)[0] == "published"


# --- one meaning of checksum; duplicates refused by the database -------------------------------------


def test_checksum_is_the_sha256_of_the_stored_payload(endpoint):
    snapshot = SnapshotFactory(raw_payload='{"rows": []}', checksum="something else")
    assert snapshot.checksum == payload_checksum('{"rows": []}')
    assert SnapshotFactory().checksum == ""  # no payload, no fingerprint


def test_the_same_payload_for_the_same_source_and_moment_is_refused_by_the_database():
    source = SourceFactory()
    measured_at = timezone.now().replace(microsecond=0)
    Snapshot.objects.create(source=source, measured_at=measured_at, raw_payload="provider,model\n")
    assert "snapshot_one_per_source_time_payload" in refused(
        Snapshot.objects.create, source=source, measured_at=measured_at, raw_payload="provider,model\n"
    )
    # Another moment, another source or another payload is another snapshot; so are hand-made ones.
    Snapshot.objects.create(source=source, measured_at=measured_at, raw_payload="provider,model,tier\n")
    Snapshot.objects.create(source=SourceFactory(), measured_at=measured_at, raw_payload="provider,model\n")
    Snapshot.objects.create(source=source, measured_at=measured_at)
    Snapshot.objects.create(source=source, measured_at=measured_at)


# --- indexes for the page queries ---------------------------------------------------------------------


def plan(queryset):
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_page_queries_use_the_snapshot_indexes():
    """Four months of daily snapshots from 150 sources (18,000 rows), analysed, as PostgreSQL would
    see a live site: the page queries must be answered from the new indexes, not a table scan."""
    sources = Source.objects.bulk_create(
        Source(title=f"Benchmark {n}", publisher="Example", url=f"https://example.com/{n}") for n in range(150)
    )
    now = timezone.now()
    Snapshot.objects.bulk_create(
        Snapshot(
            source=source,
            measured_at=now - datetime.timedelta(days=day),
            status="published" if day % 3 else "superseded",
        )
        for day in range(120)
        for source in sources
    )
    with as_owner(), connection.cursor() as cursor:  # the owner's job (autovacuum's, on a live site)
        cursor.execute("ANALYZE benchmarks_snapshot")

    # The newest published snapshot of a source (SnapshotQuerySet.current): either index serves it.
    current_plan = plan(Snapshot.objects.published().filter(source=sources[3]).order_by("-measured_at", "-pk")[:1])
    assert "Seq Scan" not in current_plan and "snapshot_" in current_plan, current_plan
    # A source's published history over a month (as_of pages, the freshness trail).
    history = Snapshot.objects.published().filter(source=sources[3]).filter(
        measured_at__gte=now - datetime.timedelta(days=40), measured_at__lte=now - datetime.timedelta(days=10)
    )
    history_plan = plan(history)
    assert "snapshot_source_status_time" in history_plan, history_plan
    recent = Snapshot.objects.filter(measured_at__gte=now - datetime.timedelta(days=2)).order_by("-measured_at")
    recent_plan = plan(recent)
    assert "snapshot_measured_at" in recent_plan, recent_plan
    assert "Seq Scan" not in recent_plan
