"""One refresh run of one source: fetch through the adapter, validate everything, then either record
"unchanged" or write exactly one new snapshot (measurements and prices) in one transaction.

Published data is never touched by a failed run: every check that can fail runs before the first
write, and the writes share one transaction. Runs of the same source are serialised by a row lock
on the source, so two runs started together produce one snapshot, not two.
"""

import logging

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from ..cache import invalidate_after_commit
from ..models import Measurement, Price, Snapshot, Source
from ..refresh_models import RefreshConfig, RefreshRun
from .adapters import (
    ConfigurationError,
    Deadline,
    RateLimitBudgetSpent,
    RefreshError,
    UpstreamUnavailable,
    get_adapter_class,
)
from .budget import newest_budget, record_budget
from .heartbeat import RunHeartbeat, worker_label
from .placement import RunRejected, check_values, checksum_of, mapping_version, place_rows, scrub
from .planning import Planner
from .review import missing_fields, review_text
from .unmapped import record_unmapped

log = logging.getLogger(__name__)


# --- the run ------------------------------------------------------------------------------------
class Refresh:
    def __init__(self, config, run, replay=None):
        self.config = config
        self.source = config.source
        self.run = run
        self.notes = []
        self.adapter = None
        self.replay = replay  # adapters.replay.SavedPayloads: saved answers instead of the upstream

    def progress(self, message):
        RefreshRun.objects.filter(pk=self.run.pk).update(progress=str(message)[:200])

    def execute(self):
        config = self.config
        version = mapping_version(config.upstream)
        stored = config.http_validators or {}
        validators = stored.get("urls", {}) if stored.get("mapping_version") == version else {}
        self.adapter = get_adapter_class(config.adapter)(
            config.params,
            validators=validators,
            progress=self.progress,
            deadline=Deadline(settings.REFRESH_RUN_DEADLINE),
            rate_limit=newest_budget(config),
            last_pages=stored.get("pages", {}),
            replay=self.replay,
        )
        if self.replay is not None:
            self.notes.append(
                f"Replayed from saved files ({self.replay.describe()}); no upstream request was sent."
            )
        try:
            result = self.adapter.fetch()
        finally:
            self.remember_budget()
        self.run.rows_read = self.rows_read()
        if self.replay is not None:
            self.replay.check_all_read()
        self.notes += result.notes
        if result.out_of_scope:
            self.notes.append(
                f"{result.out_of_scope} upstream rows are outside this source's parameters and were not read."
            )
        if result.not_modified:
            with transaction.atomic():
                self.remember_validators(result.validators, version)
                return self.finish(RefreshRun.Status.UNCHANGED, "The upstream answered 304 Not Modified.")
        if not result.rows:
            raise RunRejected(["the upstream returned no rows at all; refusing to record an empty snapshot"])

        self.progress(f"Checking {len(result.rows)} rows")
        placed = place_rows(config.upstream, result.rows)
        if not any(p.endpoint is not None for p in placed):
            # Nothing to publish: a snapshot of rows nobody can place would only hold the raw payload.
            self.record_unmapped(placed)
            raise RunRejected(
                [
                    f"none of the {len(result.rows)} upstream rows is mapped to one of our endpoints, so no "
                    "snapshot was made; map them under Data refresh → Unmapped upstream rows"
                ]
            )
        problems = check_values(placed)
        if problems:
            raise RunRejected(problems)
        checksum = checksum_of(placed)

        self.progress("Writing")
        # The snapshot and the run's outcome commit together: a run is never left "running" beside
        # the snapshot it published, nor finished without it (the sweep trusts that; scheduling.py).
        with transaction.atomic():
            # Serialises refreshes of one source: the second waits here, then sees the first's snapshot.
            Source.objects.select_for_update().filter(pk=self.source.pk).values_list("pk", flat=True).get()
            status, message = self.compare_and_write(placed, result, checksum)
            self.record_unmapped(placed)
            self.remember_validators(result.validators, version)
            if status == RefreshRun.Status.CHANGED:
                message = (
                    f"Snapshot #{self.run.snapshot_id} "
                    + ("published" if self.run.published else "saved as a draft for an editor to publish")
                    + f"; {self.run.rows_changed} figures changed."
                )
            elif status == RefreshRun.Status.HELD:
                message = (
                    f"Snapshot #{self.run.snapshot_id} held for review as a draft, not published; "
                    f"{self.run.rows_changed} figures changed. Why:\n{self.run.snapshot.review_notes}"
                )
            noted = len(self.notes)
            run = self.finish(status, message)
        if len(self.notes) > noted:
            # The cache could not be told after the commit (invalidate_after_commit): say so on the run.
            run.notes = self.notes_text(message)
            try:
                RefreshRun.objects.filter(pk=run.pk).update(notes=run.notes)
            except DatabaseError as exc:  # the outcome is recorded; the note is only a note
                log.warning("could not add the cache note to refresh run %s: %s", run.pk, exc)
        return run

    # --- writing (inside the transaction) ---------------------------------------------------
    def compare_and_write(self, placed, result, checksum):
        """(status, message): unchanged when the mapped figures equal the source's latest published
        snapshot (or the draft after it that waits for an editor), otherwise one new snapshot."""
        snapshots = Snapshot.objects.filter(source=self.source).only("pk", "status", "rows_checksum")
        published = snapshots.filter(status=Snapshot.Status.PUBLISHED).order_by("-pk").first()
        pending = (
            snapshots.filter(status=Snapshot.Status.DRAFT, pk__gt=published.pk if published else 0)
            .order_by("-pk")
            .first()
        )
        if published is not None and published.rows_checksum == checksum:
            self.note_pending(pending)
            return RefreshRun.Status.UNCHANGED, f"Same data as snapshot #{published.pk} (Published)."
        if pending is not None and pending.rows_checksum == checksum:
            return (
                RefreshRun.Status.UNCHANGED,
                f"Same data as snapshot #{pending.pk} (Draft), which waits for an editor.",
            )
        mapped = [p for p in placed if p.endpoint is not None]
        plan = Planner(self.config).plan(mapped)
        if plan.problems:
            raise RunRejected(plan.problems)
        vanished = missing_fields(
            self.source,
            {key for p in mapped for key, value in p.row.metrics.items() if value is not None},
            any(p.row.has_price for p in mapped),
        )
        if not plan.changes and not vanished:
            # Same figures as readers see from this source, reached another way (a snapshot from before
            # the checksum covered figures only, an import, fewer rows than before): nothing is news.
            # A field gone from every row is news for an editor, though: that snapshot is held below.
            self.note_pending(pending)
            return (
                RefreshRun.Status.UNCHANGED,
                "No figure differs from what this source has published; nothing was written.",
            )
        plan.concerns += vanished
        held = self.write(plan, result, checksum)
        return (RefreshRun.Status.HELD if held else RefreshRun.Status.CHANGED), ""

    def note_pending(self, pending):
        if pending is not None:
            self.notes.append(
                f"Draft snapshot #{pending.pk} still waits for an editor; this run brought the published "
                "figures again."
            )

    def write(self, plan, result, checksum):
        """Write the snapshot; True when it is held for review (never published automatically)."""
        snapshot = self.create_snapshot(result, checksum, review_text(plan.concerns))
        self.store(snapshot, plan)
        if self.source.auto_publish and not plan.concerns:
            snapshot.publish()
            self.run.published = True
            invalidate_after_commit(self.notes, keys=())  # the publish bumped the snapshot's models
        self.run.snapshot = snapshot
        self.run.rows_changed = len(plan.changes)
        self.run.changes = plan.changes
        return bool(plan.concerns)

    def create_snapshot(self, result, checksum, review_notes):
        return Snapshot.objects.create(
            source=self.source,
            workload=self.config.workload,
            effort=self.config.effort,
            measured_at=result.measured_at or timezone.now(),
            fetched_at=timezone.now(),
            raw_payload=result.raw_payload,
            rows_checksum=checksum,
            review_notes=review_notes,
            status=Snapshot.Status.DRAFT,
        )

    def store(self, snapshot, plan):
        for measurement in plan.measurements:
            measurement.snapshot = snapshot
        Measurement.objects.bulk_create(plan.measurements)
        for earlier in plan.replaced:
            self.notes.append(
                f"Today's earlier price of {earlier.endpoint} from draft snapshot #{earlier.snapshot_id} was replaced."
            )
            earlier.delete()
        for price in plan.prices:
            price.snapshot = snapshot
        Price.objects.bulk_create(plan.prices)

    # --- bookkeeping ------------------------------------------------------------------------
    def record_unmapped(self, placed):
        self.run.unmapped_rows, notes = record_unmapped(self.config.upstream, self.source, self.run, placed)
        self.notes += notes

    def remember_budget(self, error=None):
        """Keep the upstream's request budget on the settings (the admin shows it) and, when it is
        spent, hold scheduled runs until it resets instead of knocking every few minutes."""
        budget = self.adapter.rate_limit if self.adapter is not None else None
        if budget is None or self.replay is not None:
            return  # a replay asked the upstream nothing: the budget it knows is not news
        now = timezone.now()
        spent = (
            isinstance(error, RateLimitBudgetSpent)
            or (isinstance(error, UpstreamUnavailable) and error.status == 429)
            or (budget.remaining is not None and budget.remaining <= settings.REFRESH_RATE_LIMIT_RESERVE)
        )
        next_attempt = budget.reset if spent and budget.reset and budget.reset > now else None
        record_budget(self.config, budget, next_attempt)
        if next_attempt is not None:
            note = (
                f"Request budget: {budget.describe()}; scheduled runs wait until "
                f"{timezone.localtime(next_attempt):%Y-%m-%d %H:%M}."
            )
            if note not in self.notes:
                self.notes.append(note)

    def remember_validators(self, validators, version):
        if self.replay is not None:
            return  # saved files say nothing about the upstream's current ETags or page count
        RefreshConfig.objects.filter(pk=self.config.pk).update(
            http_validators={
                "mapping_version": version,
                "urls": {url: v for url, v in validators.items() if v},
                "pages": self.pages_seen(),
            }
        )

    def pages_seen(self):
        """How many pages each paged list had, last known: a run plans its requests with it."""
        stored = (self.config.http_validators or {}).get("pages", {})
        fetched = self.adapter.result if self.adapter is not None else None
        return {**stored, **(fetched.list_pages if fetched is not None else {})}

    def remember_pages(self):
        """After a failed run too: the page count page 1 announced is what the next run must afford."""
        pages = self.pages_seen()
        if self.replay is None and pages != (self.config.http_validators or {}).get("pages", {}):
            RefreshConfig.objects.filter(pk=self.config.pk).update(
                http_validators={**(self.config.http_validators or {}), "pages": pages}
            )

    def rows_read(self):
        """Rows the adapter read, also when it failed half way or the run was rejected afterwards."""
        fetched = self.adapter.result if self.adapter is not None else None
        return len(fetched.rows) if fetched is not None else 0

    def notes_text(self, message):
        return scrub("\n".join(([message] if message else []) + self.notes))

    def finish(self, status, message):
        run = self.run
        run.status = status
        run.finished = timezone.now()
        run.progress = ""
        run.notes = self.notes_text(message)
        run.save()
        return run


# --- entry points -------------------------------------------------------------------------------
def run_refresh(source_id, run_id=None, trigger=RefreshRun.Trigger.SCHEDULE, replay=None):
    """Run one refresh now, in this process; always returns the recorded RefreshRun. `replay`
    (adapters.replay.SavedPayloads) answers the adapter's requests from saved files."""
    config = RefreshConfig.objects.select_related("source").filter(source_id=source_id).first()
    run = RefreshRun.objects.filter(pk=run_id).first() if run_id else None
    if run is not None and run.is_finished:
        return run  # a redelivered task message (acks_late): the run already has its outcome
    if run is None:
        run = RefreshRun(source_id=source_id, trigger=trigger)
    run.adapter = config.adapter if config else run.adapter
    run.status = RefreshRun.Status.RUNNING
    run.started = run.heartbeat_at = timezone.now()
    run.worker = worker_label()
    run.progress = "Starting"
    run.save()
    with RunHeartbeat(run.pk):
        return _run(config, run, source_id, replay)


def _run(config, run, source_id, replay):
    refresh = Refresh(config, run, replay) if config else None
    try:
        if refresh is None:
            raise ConfigurationError("this source has no refresh settings")
        return refresh.execute()
    except RefreshError as exc:
        if refresh is not None:
            refresh.remember_budget(exc)
            refresh.remember_pages()
            run.rows_read = refresh.rows_read()
        return fail(run, str(exc), refresh.notes if refresh else [])
    except SoftTimeLimitExceeded:
        run.rows_read = refresh.rows_read() if refresh else 0
        return fail(
            run,
            "stopped by the refresh task's time limit (REFRESH_TASK_SOFT_TIME_LIMIT, "
            f"{settings.REFRESH_TASK_SOFT_TIME_LIMIT} s); nothing was written",
            refresh.notes if refresh else [],
        )
    except Exception as exc:  # the run must be recorded whatever went wrong
        log.exception("refresh of source %s failed unexpectedly", source_id)
        run.rows_read = refresh.rows_read() if refresh else 0
        return fail(
            run, f"unexpected error ({exc.__class__.__name__}): {exc}", refresh.notes if refresh else []
        )


def fail(run, reason, notes=()):
    if run.pk is not None:
        # A run whose outcome committed (with its snapshot) keeps it: an error after that commit, or
        # a database that stopped then, must not turn a published snapshot's run into "failed".
        with transaction.atomic():
            recorded = RefreshRun.objects.select_for_update().filter(pk=run.pk).values_list("status", flat=True)
            if recorded.first() in RefreshRun.FINISHED:
                log.warning("refresh run %s already finished; not recording the later error: %s", run.pk, reason)
                return RefreshRun.objects.get(pk=run.pk)
            return _record_failure(run, reason, notes)
    return _record_failure(run, reason, notes)


def _record_failure(run, reason, notes):
    run.status = RefreshRun.Status.FAILED
    run.error = scrub(reason)
    run.notes = scrub("\n".join(notes))
    run.finished = timezone.now()
    run.progress = ""
    run.snapshot = None
    run.published = False
    run.rows_changed = 0
    run.changes = []
    run.save()
    log.warning("refresh of %s failed: %s", run.source_id, run.error.splitlines()[0])
    return run
