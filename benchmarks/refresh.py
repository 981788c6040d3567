"""One refresh run of one source: fetch through the adapter, validate everything, then either record
"unchanged" or write exactly one new snapshot (measurements and prices) in one transaction.

Published data is never touched by a failed run: every check that can fail runs before the first
write, and the writes share one transaction. Runs of the same source are serialised by a row lock
on the source, so two runs started together produce one snapshot, not two.
"""

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone

from .adapters import ConfigurationError, RefreshError, get_adapter_class
from .adapters.artificial_analysis import API_KEY_ENV
from .cache import bump_data_generation
from .metrics import get_metric
from .models import Endpoint, Measurement, Price, Snapshot, Source
from .refresh_models import RefreshConfig, RefreshRun, UnmappedUpstreamRow, UpstreamMapping

log = logging.getLogger(__name__)

MAX_LISTED_PROBLEMS = 10


class RunRejected(RefreshError):
    """The upstream answered, but what it said cannot be published; lists every problem found."""

    kind = "value"

    def __init__(self, problems):
        self.problems = problems
        shown = problems[:MAX_LISTED_PROBLEMS]
        more = len(problems) - len(shown)
        head = problems[0] if len(problems) == 1 else f"{len(problems)} problems, nothing was written:"
        lines = [head] if len(problems) == 1 else [head, *(f"- {problem}" for problem in shown)]
        if more:
            lines.append(f"- … and {more} more")
        super().__init__("\n".join(lines))


@dataclass
class Placed:
    """An upstream row and the endpoint it describes (None: unmapped or ignored, with the reason)."""

    row: object
    endpoint: Endpoint | None = None
    reason: str = ""
    ignored: bool = False


def scrub(text):
    """Belt and braces: the API key must never reach the run log, whatever an exception said."""
    key = os.environ.get(API_KEY_ENV, "").strip()
    return text.replace(key, "***") if key and text else text


def money(value):
    return format(value.normalize(), "f") if value is not None else None


def price_text(input_per_m, output_per_m, currency):
    return f"{money(input_per_m)} / {money(output_per_m)} {currency}"


# --- mapping ------------------------------------------------------------------------------------
def mapping_version(upstream):
    """Changes whenever a mapping or an endpoint changes, so conditional requests are not trusted
    across a mapping edit (the same upstream body would now be placed differently)."""
    mappings = UpstreamMapping.objects.filter(upstream=upstream).aggregate(
        n=Count("pk"), latest=Max("updated_at")
    )
    endpoints = Endpoint.objects.aggregate(n=Count("pk"), top=Max("pk"))
    return f"{mappings['n']}:{mappings['latest'].isoformat() if mappings['latest'] else '-'}:{endpoints['n']}:{endpoints['top']}"


def place_rows(upstream, rows):
    """Resolve every row through the editor-managed mapping, in two queries whatever the row count."""
    mappings = {
        mapping.upstream_id: mapping
        for mapping in UpstreamMapping.objects.filter(
            upstream=upstream, upstream_id__in=[row.upstream_id for row in rows]
        ).select_related("endpoint__provider", "endpoint__model", "provider", "model")
    }
    pairs = {
        (m.provider_id, m.model_id) for m in mappings.values() if not m.ignored and m.endpoint_id is None
    }
    standard = {}
    if pairs:
        for endpoint in Endpoint.objects.filter(
            tier="", provider_id__in={p for p, _m in pairs}, model_id__in={m for _p, m in pairs}
        ).select_related("provider", "model"):
            standard[(endpoint.provider_id, endpoint.model_id)] = endpoint
    placed = []
    for row in rows:
        mapping = mappings.get(row.upstream_id)
        if mapping is None:
            placed.append(Placed(row, reason="no mapping for this identifier"))
        elif mapping.ignored:
            placed.append(Placed(row, ignored=True))
        elif mapping.endpoint_id:
            placed.append(Placed(row, endpoint=mapping.endpoint))
        else:
            endpoint = standard.get((mapping.provider_id, mapping.model_id))
            if endpoint is None:
                placed.append(
                    Placed(
                        row,
                        reason=f"mapped to {mapping.provider} × {mapping.model}, which has no standard-tier endpoint",
                    )
                )
            else:
                placed.append(Placed(row, endpoint=endpoint))
    return placed


def checksum_of(placed):
    """What the data says once placed on our endpoints; volatile upstream fields (timestamps, key
    order, whitespace) do not count, but a new mapping does."""
    canonical = sorted(
        ({**p.row.canonical(), "endpoint": p.endpoint.pk if p.endpoint else None} for p in placed),
        key=lambda item: item["id"],
    )
    return hashlib.sha256(json.dumps(canonical, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


# --- checks that need no database ---------------------------------------------------------------
def check_values(placed):
    problems = []
    claimed = {}
    for item in placed:
        row = item.row
        label = f"{row.where} ({row.name})"
        for key, value in row.metrics.items():
            message = get_metric(key).validate(value)
            if message:
                problems.append(f"{label}: {message}")
        if row.has_price:
            if row.input_per_m is None or row.output_per_m is None:
                problems.append(f"{label}: the upstream gives only one of the input and output prices")
            for side, value in (("input", row.input_per_m), ("output", row.output_per_m)):
                if value is not None and value < 0:
                    problems.append(
                        f"{label}: the {side} price cannot be negative (got {money(value)} per 1M tokens)"
                    )
        if item.endpoint is not None:
            other = claimed.setdefault(item.endpoint.pk, item)
            if other is not item:
                problems.append(
                    f"{label}: {other.row.name} and {row.name} both map to {item.endpoint}; fix the mapping table"
                )
    return problems


# --- the run ------------------------------------------------------------------------------------
class Refresh:
    def __init__(self, config, run):
        self.config = config
        self.source = config.source
        self.run = run
        self.notes = []

    def progress(self, message):
        RefreshRun.objects.filter(pk=self.run.pk).update(progress=str(message)[:200])

    def execute(self):
        config = self.config
        version = mapping_version(config.upstream)
        stored = config.http_validators or {}
        validators = stored.get("urls", {}) if stored.get("mapping_version") == version else {}
        adapter = get_adapter_class(config.adapter)(
            config.params, validators=validators, progress=self.progress
        )
        result = adapter.fetch()
        self.notes += result.notes
        if result.out_of_scope:
            self.notes.append(
                f"{result.out_of_scope} upstream rows are outside this source's parameters and were not read."
            )
        if result.not_modified:
            self.remember_validators(result.validators, version)
            return self.finish(RefreshRun.Status.UNCHANGED, "The upstream answered 304 Not Modified.")
        if not result.rows:
            raise RunRejected(["the upstream returned no rows at all; refusing to record an empty snapshot"])

        self.progress(f"Checking {len(result.rows)} rows")
        placed = place_rows(config.upstream, result.rows)
        problems = check_values(placed)
        if problems:
            raise RunRejected(problems)
        checksum = checksum_of(placed)
        self.run.rows_read = len(result.rows)

        self.progress("Writing")
        with transaction.atomic():
            # Serialises refreshes of one source: the second waits here, then sees the first's snapshot.
            Source.objects.select_for_update().filter(pk=self.source.pk).values_list("pk", flat=True).get()
            latest = (
                Snapshot.objects.filter(source=self.source)
                .order_by("-pk")
                .only("pk", "status", "checksum")
                .first()
            )
            if latest is not None and latest.checksum == checksum:
                status, message = (
                    RefreshRun.Status.UNCHANGED,
                    f"Same data as snapshot #{latest.pk} ({latest.get_status_display()}).",
                )
            else:
                self.write(placed, result, checksum)
                status, message = RefreshRun.Status.CHANGED, ""
        self.record_unmapped(placed)
        self.remember_validators(result.validators, version)
        if status == RefreshRun.Status.CHANGED:
            message = (
                f"Snapshot #{self.run.snapshot_id} "
                + ("published" if self.run.published else "saved as a draft for an editor to publish")
                + f"; {self.run.rows_changed} figures changed."
            )
        return self.finish(status, message)

    # --- writing (inside the transaction) ---------------------------------------------------
    def write(self, placed, result, checksum):
        mapped = [p for p in placed if p.endpoint is not None]
        endpoint_ids = [p.endpoint.pk for p in mapped]
        today = timezone.localdate()
        old_values = {
            (m.endpoint_id, m.metric): m.value
            for m in Measurement.objects.latest(sources=[self.source], endpoints=endpoint_ids)
        }
        shown_prices = {p.endpoint_id: p for p in Price.objects.current(endpoints=endpoint_ids)}
        own_prices = {}
        for price in (
            Price.objects.usable()
            .filter(source=self.source, endpoint_id__in=endpoint_ids, effective_date__lte=today)
            .order_by("endpoint_id", "-effective_date", "-pk")
        ):
            own_prices.setdefault(price.endpoint_id, price)
        same_day = {
            p.endpoint_id: p
            for p in Price.objects.filter(
                source=self.source, effective_date=today, endpoint_id__in=endpoint_ids
            ).select_related("snapshot", "endpoint__provider", "endpoint__model")
        }
        factor = Decimal(self.config.max_price_jump_factor)

        problems, changes, measurements, prices, replaced = [], [], [], [], []
        for item in mapped:
            row, endpoint = item.row, item.endpoint
            label = f"{endpoint.label} · {endpoint.model.name}"
            for key, value in row.metrics.items():
                if value is None:
                    continue  # null = not measured: no row, the page shows a dash
                measurements.append(Measurement(endpoint=endpoint, metric=key, value=value))
                old = old_values.get((endpoint.pk, key))
                if old is None or old != value:
                    changes.append(self.change(endpoint, label, key, money(old), money(value)))
            if not row.has_price:
                continue
            own = own_prices.get(endpoint.pk)
            if own is not None and (own.input_per_m, own.output_per_m, own.currency) == (
                row.input_per_m,
                row.output_per_m,
                row.currency,
            ):
                continue
            # A change is judged against this source's last price, or what readers see if it has none.
            problems += self.price_jumps(label, row, own or shown_prices.get(endpoint.pk), factor)
            earlier = same_day.get(endpoint.pk)
            if earlier is not None:
                if earlier.snapshot is not None and earlier.snapshot.status == Snapshot.Status.DRAFT:
                    replaced.append(earlier)
                else:
                    problems.append(
                        f"{row.where} ({label}): this source already recorded a price for {today} "
                        f"({price_text(earlier.input_per_m, earlier.output_per_m, earlier.currency)}); prices take effect "
                        f"per day, so today's second change needs an editor or waits for tomorrow's refresh"
                    )
                    continue
            prices.append(
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
            changes.append(
                self.change(
                    endpoint,
                    label,
                    "price",
                    old_text,
                    price_text(row.input_per_m, row.output_per_m, row.currency),
                )
            )
        if problems:
            raise RunRejected(problems)

        snapshot = Snapshot.objects.create(
            source=self.source,
            workload=self.config.workload,
            effort=self.config.effort,
            measured_at=result.measured_at or timezone.now(),
            fetched_at=timezone.now(),
            raw_payload=result.raw_payload,
            checksum=checksum,
            status=Snapshot.Status.DRAFT,
        )
        for measurement in measurements:
            measurement.snapshot = snapshot
        Measurement.objects.bulk_create(measurements)
        for earlier in replaced:
            self.notes.append(
                f"Today's earlier price of {earlier.endpoint} from draft snapshot #{earlier.snapshot_id} was replaced."
            )
            earlier.delete()
        for price in prices:
            price.snapshot = snapshot
        Price.objects.bulk_create(prices)
        if self.source.auto_publish:
            snapshot.publish()
            self.run.published = True
            transaction.on_commit(bump_data_generation)
        self.run.snapshot = snapshot
        self.run.rows_changed = len(changes)
        self.run.changes = changes

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

    @staticmethod
    def price_jumps(label, row, current, factor):
        if current is None or current.currency != row.currency:
            return []
        problems = []
        for side, old, new in (
            ("input", current.input_per_m, row.input_per_m),
            ("output", current.output_per_m, row.output_per_m),
        ):
            if not old or new is None:
                continue
            if new > old * factor or new * factor < old:
                problems.append(
                    f"{row.where} ({label}): the {side} price would jump from {money(old)} to {money(new)} "
                    f"{row.currency} per 1M tokens, more than the {factor.normalize()}× this source accepts"
                )
        return problems

    # --- bookkeeping ------------------------------------------------------------------------
    def record_unmapped(self, placed):
        upstream = self.config.upstream
        now = timezone.now()
        unmapped = {p.row.upstream_id: p for p in placed if p.endpoint is None and not p.ignored}
        mapped_ids = [p.row.upstream_id for p in placed if p.endpoint is not None or p.ignored]
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
        self.run.unmapped_rows = len(unmapped)
        ignored = sum(1 for p in placed if p.ignored)
        if unmapped:
            self.notes.append(f"{len(unmapped)} rows have no mapping yet: see Unmapped upstream rows.")
        if ignored:
            self.notes.append(f"{ignored} rows are marked “not ours” in the mapping table.")

    def remember_validators(self, validators, version):
        RefreshConfig.objects.filter(pk=self.config.pk).update(
            http_validators={
                "mapping_version": version,
                "urls": {url: v for url, v in validators.items() if v},
            }
        )

    def finish(self, status, message):
        run = self.run
        run.status = status
        run.finished = timezone.now()
        run.progress = ""
        run.notes = scrub("\n".join(([message] if message else []) + self.notes))
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
        return fail(run, str(exc), refresh.notes if refresh else [])
    except Exception as exc:  # the run must be recorded whatever went wrong
        log.exception("refresh of source %s failed unexpectedly", source_id)
        return fail(
            run, f"unexpected error ({exc.__class__.__name__}): {exc}", refresh.notes if refresh else []
        )


def fail(run, reason, notes=()):
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


def task_for_adapter(adapter):
    from . import tasks

    return {
        "artificial_analysis": tasks.refresh_artificial_analysis,
        "artificial_analysis_legacy_file": tasks.refresh_artificial_analysis,
        "openrouter": tasks.refresh_openrouter,
        "litellm": tasks.refresh_litellm,
    }[adapter]


def enqueue_refresh(source, user=None, queue=None):
    """The admin's "Refresh now": a queued run the page can poll, and the task that will run it."""
    config = RefreshConfig.objects.get(source=source)
    run = RefreshRun.objects.create(
        source=source,
        adapter=config.adapter,
        trigger=RefreshRun.Trigger.MANUAL,
        requested_by=user,
        progress="Waiting for a worker",
    )
    task = task_for_adapter(config.adapter)
    options = {"queue": queue} if queue else {}

    def send():
        try:
            task.apply_async(kwargs={"source_id": source.pk, "run_id": run.pk}, **options)
        except Exception as exc:  # an unreachable broker must not leave a run "queued" forever
            log.exception("could not queue the refresh of source %s", source.pk)
            fail(run, f"could not reach the task queue ({exc.__class__.__name__}): {exc}")

    transaction.on_commit(send)
    return run


def due_configs(adapters, now=None):
    """Enabled sources of these adapters whose interval has passed since their last run started."""
    configs = (
        RefreshConfig.objects.filter(enabled=True, adapter__in=adapters)
        .select_related("source")
        .annotate(last_started=Max("source__refresh_runs__started"))
    )
    return [config for config in configs if config.is_due(config.last_started, now)]
