"""One refresh run of one source: fetch through the adapter, validate everything, then either record
"unchanged" or write exactly one new snapshot (measurements and prices) in one transaction.

Published data is never touched by a failed run: every check that can fail runs before the first
write, and the writes share one transaction. Runs of the same source are serialised by a row lock
on the source, so two runs started together produce one snapshot, not two.
"""

import logging
from dataclasses import dataclass, field

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from ..cache import invalidate_after_commit
from ..models import Measurement, Price, Snapshot, Source
from ..refresh_models import RefreshConfig, RefreshRun, UnmappedUpstreamRow
from .adapters import (
    ConfigurationError,
    Deadline,
    RateLimitBudgetSpent,
    RefreshError,
    UpstreamUnavailable,
    get_adapter_class,
)
from .budget import newest_budget, record_budget
from .placement import (
    RunRejected,
    check_values,
    checksum_of,
    mapping_version,
    money,
    place_rows,
    price_text,
    scrub,
)
from .review import measurement_concerns, missing_fields, price_concerns, review_text

log = logging.getLogger(__name__)


@dataclass
class InForce:
    """What this source and the site show today for the endpoints a run touches: the baseline a
    run's changes and price jumps are judged against."""

    values: dict  # (endpoint id, metric) -> this source's latest published value
    shown_prices: dict  # endpoint id -> the price readers see (any source)
    own_prices: dict  # endpoint id -> this source's latest usable price
    same_day: dict  # endpoint id -> a price this source already recorded today


@dataclass
class Plan:
    """The rows one run will write, and what the review of changed figures will list."""

    measurements: list = field(default_factory=list)
    prices: list = field(default_factory=list)
    replaced: list = field(default_factory=list)  # today's draft prices the new ones supersede
    changes: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    concerns: list = field(default_factory=list)  # not refused, but held for review (review.py)


# --- the run ------------------------------------------------------------------------------------
class Refresh:
    def __init__(self, config, run):
        self.config = config
        self.source = config.source
        self.run = run
        self.notes = []
        self.adapter = None

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
        )
        try:
            result = self.adapter.fetch()
        finally:
            self.remember_budget()
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
            self.run.rows_read = len(result.rows)
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
        self.run.rows_read = len(result.rows)

        self.progress("Writing")
        # The snapshot and the run's outcome commit together: a run is never left "running" beside
        # the snapshot it published, nor finished without it (the sweep trusts that; scheduling.py).
        with transaction.atomic():
            # Serialises refreshes of one source: the second waits here, then sees the first's snapshot.
            Source.objects.select_for_update().filter(pk=self.source.pk).values_list("pk", flat=True).get()
            latest = (
                Snapshot.objects.filter(source=self.source)
                .order_by("-pk")
                .only("pk", "status", "rows_checksum")
                .first()
            )
            if latest is not None and latest.rows_checksum == checksum:
                status, message = (
                    RefreshRun.Status.UNCHANGED,
                    f"Same data as snapshot #{latest.pk} ({latest.get_status_display()}).",
                )
            else:
                held = self.write(placed, result, checksum)
                status, message = (RefreshRun.Status.HELD if held else RefreshRun.Status.CHANGED), ""
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
    def write(self, placed, result, checksum):
        """Write the snapshot; True when it is held for review (never published automatically)."""
        mapped = [p for p in placed if p.endpoint is not None]
        in_force = self.in_force([p.endpoint.pk for p in mapped])
        plan = self.plan(mapped, in_force)
        if plan.problems:
            raise RunRejected(plan.problems)
        plan.concerns += missing_fields(
            self.source,
            {key for p in mapped for key, value in p.row.metrics.items() if value is not None},
            any(p.row.has_price for p in mapped),
        )
        snapshot = self.create_snapshot(result, checksum, review_text(plan.concerns))
        self.store(snapshot, plan)
        if self.source.auto_publish and not plan.concerns:
            snapshot.publish()
            self.run.published = True
            invalidate_after_commit(self.notes)
        self.run.snapshot = snapshot
        self.run.rows_changed = len(plan.changes)
        self.run.changes = plan.changes
        return bool(plan.concerns)

    def in_force(self, endpoint_ids):
        today = timezone.localdate()
        own_prices = {}
        for price in (
            Price.objects.usable()
            .filter(source=self.source, endpoint_id__in=endpoint_ids, effective_date__lte=today)
            .order_by("endpoint_id", "-effective_date", "-pk")
        ):
            own_prices.setdefault(price.endpoint_id, price)
        return InForce(
            values={
                (m.endpoint_id, m.metric): m.value
                for m in Measurement.objects.latest(sources=[self.source], endpoints=endpoint_ids)
            },
            shown_prices={p.endpoint_id: p for p in Price.objects.current(endpoints=endpoint_ids)},
            own_prices=own_prices,
            # raw_payload deferred: a day's earlier snapshots can be large, and only their status is read.
            same_day={
                p.endpoint_id: p
                for p in Price.objects.filter(
                    source=self.source, effective_date=today, endpoint_id__in=endpoint_ids
                )
                .select_related("snapshot", "endpoint__provider", "endpoint__model")
                .defer("snapshot__raw_payload")
            },
        )

    def plan(self, mapped, in_force):
        plan = Plan()
        for item in mapped:
            label = f"{item.endpoint.label} · {item.endpoint.model.name}"
            self.plan_measurements(plan, item, label, in_force)
            if item.row.has_price:
                self.plan_price(plan, item, label, in_force)
        return plan

    def plan_measurements(self, plan, item, label, in_force):
        endpoint = item.endpoint
        for key, value in item.row.metrics.items():
            if value is None:
                continue  # null = not measured: no row, the page shows a dash
            plan.measurements.append(Measurement(endpoint=endpoint, metric=key, value=value))
            old = in_force.values.get((endpoint.pk, key))
            plan.concerns += measurement_concerns(f"{item.row.where} ({label})", key, value, old)
            if old is None or old != value:
                plan.changes.append(self.change(endpoint, label, key, money(old), money(value)))

    def plan_price(self, plan, item, label, in_force):
        row, endpoint = item.row, item.endpoint
        today = timezone.localdate()
        own = in_force.own_prices.get(endpoint.pk)
        if own is not None and (own.input_per_m, own.output_per_m, own.currency) == (
            row.input_per_m,
            row.output_per_m,
            row.currency,
        ):
            return
        # A change is judged against this source's last price, or what readers see if it has none.
        plan.concerns += price_concerns(
            f"{row.where} ({label})",
            row.input_per_m,
            row.output_per_m,
            row.currency,
            own or in_force.shown_prices.get(endpoint.pk),
            self.config.max_price_jump_factor,
        )
        earlier = in_force.same_day.get(endpoint.pk)
        if earlier is not None:
            if earlier.snapshot is not None and earlier.snapshot.status == Snapshot.Status.DRAFT:
                plan.replaced.append(earlier)
            else:
                plan.problems.append(
                    f"{row.where} ({label}): this source already recorded a price for {today} "
                    f"({price_text(earlier.input_per_m, earlier.output_per_m, earlier.currency)}); prices take effect "
                    f"per day, so today's second change needs an editor or waits for tomorrow's refresh"
                )
                return
        plan.prices.append(
            Price(
                endpoint=endpoint,
                input_per_m=row.input_per_m,
                output_per_m=row.output_per_m,
                currency=row.currency,
                effective_date=today,
                source=self.source,
            )
        )
        old_text = price_text(own.input_per_m, own.output_per_m, own.currency) if own else None
        new_text = price_text(row.input_per_m, row.output_per_m, row.currency)
        plan.changes.append(self.change(endpoint, label, "price", old_text, new_text))

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

    @staticmethod
    def change(endpoint, label, what, old, new):
        return {
            "endpoint": endpoint.pk,
            "model": endpoint.model_id,
            "label": label,
            "what": what,
            "old": old,
            "new": new,
        }

    # --- bookkeeping ------------------------------------------------------------------------
    def record_unmapped(self, placed):
        upstream = self.config.upstream
        now = timezone.now()
        unmapped = {p.row.upstream_id: p for p in placed if p.endpoint is None and not p.ignored}
        mapped_ids = [
            key
            for p in placed
            if p.endpoint is not None or p.ignored
            for key in (p.row.upstream_id, *p.row.aliases)
        ]
        total_unmapped = len(unmapped)
        limit = settings.REFRESH_MAX_UNMAPPED_STORED
        if total_unmapped > limit:
            # A list nobody can read helps nobody and can fill the database: keep the first rows, count the rest.
            unmapped = dict(sorted(unmapped.items())[:limit])
        UnmappedUpstreamRow.objects.filter(upstream=upstream, upstream_id__in=mapped_ids).delete()
        existing = {
            row.upstream_id: row
            for row in UnmappedUpstreamRow.objects.filter(upstream=upstream, upstream_id__in=list(unmapped))
        }
        new_rows, updated = [], []
        for upstream_id, item in unmapped.items():
            values = dict(
                upstream_name=item.row.name[:300],
                reason=item.reason[:300],
                source=self.source,
                last_run=self.run,
                last_seen=now,
                sample=item.row.canonical(),
            )
            row = existing.get(upstream_id)
            if row is None:
                new_rows.append(
                    UnmappedUpstreamRow(
                        upstream=upstream, upstream_id=upstream_id[:300], first_seen=now, **values
                    )
                )
            else:
                for name, value in values.items():
                    setattr(row, name, value)
                row.times_seen += 1
                updated.append(row)
        UnmappedUpstreamRow.objects.bulk_create(new_rows)
        UnmappedUpstreamRow.objects.bulk_update(
            updated, ["upstream_name", "reason", "source", "last_run", "last_seen", "sample", "times_seen"]
        )
        self.run.unmapped_rows = total_unmapped
        ignored = sum(1 for p in placed if p.ignored)
        if unmapped:
            self.notes.append(f"{total_unmapped} rows have no mapping yet: see Unmapped upstream rows.")
        if total_unmapped > len(unmapped):
            self.notes.append(
                f"Only the first {len(unmapped)} unmapped rows were stored (REFRESH_MAX_UNMAPPED_STORED); "
                f"{total_unmapped - len(unmapped)} more were counted, not stored."
            )
        if ignored:
            self.notes.append(f"{ignored} rows are marked “not ours” in the mapping table.")

    def remember_budget(self, error=None):
        """Keep the upstream's request budget on the settings (the admin shows it) and, when it is
        spent, hold scheduled runs until it resets instead of knocking every few minutes."""
        budget = self.adapter.rate_limit if self.adapter is not None else None
        if budget is None:
            return
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
        RefreshConfig.objects.filter(pk=self.config.pk).update(
            http_validators={
                "mapping_version": version,
                "urls": {url: v for url, v in validators.items() if v},
            }
        )

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
def run_refresh(source_id, run_id=None, trigger=RefreshRun.Trigger.SCHEDULE):
    """Run one refresh now, in this process; always returns the recorded RefreshRun."""
    config = RefreshConfig.objects.select_related("source").filter(source_id=source_id).first()
    run = RefreshRun.objects.filter(pk=run_id).first() if run_id else None
    if run is not None and run.is_finished:
        return run  # a redelivered task message (acks_late): the run already has its outcome
    if run is None:
        run = RefreshRun(source_id=source_id, trigger=trigger)
    run.adapter = config.adapter if config else run.adapter
    run.status = RefreshRun.Status.RUNNING
    run.started = timezone.now()
    run.progress = "Starting"
    run.save()
    refresh = Refresh(config, run) if config else None
    try:
        if refresh is None:
            raise ConfigurationError("this source has no refresh settings")
        return refresh.execute()
    except RefreshError as exc:
        if refresh is not None:
            refresh.remember_budget(exc)
        return fail(run, str(exc), refresh.notes if refresh else [])
    except SoftTimeLimitExceeded:
        return fail(
            run,
            "stopped by the refresh task's time limit (REFRESH_TASK_SOFT_TIME_LIMIT, "
            f"{settings.REFRESH_TASK_SOFT_TIME_LIMIT} s); nothing was written",
            refresh.notes if refresh else [],
        )
    except Exception as exc:  # the run must be recorded whatever went wrong
        log.exception("refresh of source %s failed unexpectedly", source_id)
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
