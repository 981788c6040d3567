"""CSV and JSON import of a measured snapshot (with its measurements) and of price lists.

The formats are documented in docs/import-formats.md. Every row is checked, and a file with
any error writes nothing (rows sent to the database while the file is checked are rolled back
with the import's transaction): editors fix the file and import it again rather than untangling a half-imported one. The file's text is kept on the snapshot
with its SHA-256 (`Snapshot.checksum`), so importing the same file twice changes nothing, and
the database refuses a second snapshot of the same payload for the same source and moment.
A different file for a source and moment already published is a correction of that snapshot.
Implausible values and large jumps hold the import as a draft for review (../review.py).
"""

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ...cache import invalidate_after_commit
from ...models import Price, Snapshot, payload_checksum
from ..bulk import MeasurementWriter
from ..review import review_text
from .formats import (
    CSV,
    FORMATS,
    JSON,
    MEASUREMENT_COLUMNS,
    PRICE_COLUMNS,
    PRICE_META,
    SNAPSHOT_META,
    ImportIssue,
    ImportRejected,
    _Errors,
)
from .history import (
    link_correction,
    lock_source,
    measurement_review,
    other_snapshot_prices,
    price_review,
    replaced_snapshot,
)
from .reading import (
    _as_bytes,
    _decode,
    _guess_format,
    _make_optional,
    _parse_date_value,
    _read_csv,
    _read_json,
)
from .rows import (
    _already_imported,
    _build_snapshot,
    _Catalogue,
    _check_existing_prices,
    _clean_measurements,
    _clean_prices,
    _lock_and_recheck,
    _merge_meta,
)

__all__ = ["CSV", "FORMATS", "JSON", "ImportIssue", "ImportRejected", "ImportResult", "import_prices", "import_snapshot"]


@dataclass
class ImportResult:
    kind: str  # "snapshot" or "prices"
    snapshot: Snapshot
    created: bool  # False: the same file had been imported before and nothing changed
    count: int = 0
    concerns: list = field(default_factory=list)  # why it is held for review instead of published

    @property
    def held(self):
        return bool(self.concerns)

    @property
    def summary(self):
        status = self.snapshot.get_status_display().lower()
        if not self.created:
            return _(
                "This file was already imported as snapshot #%(pk)s (%(status)s); nothing was changed."
            ) % {"pk": self.snapshot.pk, "status": status}
        values = {"count": self.count, "pk": self.snapshot.pk, "status": status}
        if self.kind == "prices":
            text = ngettext(
                "Imported %(count)s price, recorded in snapshot #%(pk)s (%(status)s).",
                "Imported %(count)s prices, recorded in snapshot #%(pk)s (%(status)s).",
                self.count,
            ) % values
        else:
            text = ngettext(
                "Imported %(count)s measurement into snapshot #%(pk)s (%(status)s).",
                "Imported %(count)s measurements into snapshot #%(pk)s (%(status)s).",
                self.count,
            ) % values
        if self.snapshot.supersedes_id:
            text += " " + _("It corrects snapshot #%(old)s (same source and measured at).") % {
                "old": self.snapshot.supersedes_id
            }
        if self.held:
            text += " " + _("Held for review, not published:") + "\n" + review_text(self.concerns)
        return text


# --- public entry points ----------------------------------------------------------------------


@contextmanager
def _collector_paused():
    """An import keeps every row it reads until it ends: the cyclic garbage collector frees none of them
    but rescans them, and in a full pass all of Django's objects, every few hundred allocations (~70 ms
    of a 20,000-row import). Reference counting still frees everything else; the collector runs again
    as soon as the import returns."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@_collector_paused()
def import_snapshot(raw, fmt=None, *, filename=None, publish=False, **meta):
    """Import a snapshot with its measurements from CSV or JSON bytes.

    `meta` holds snapshot fields (SNAPSHOT_META) that a CSV file cannot carry; a JSON file
    may carry them itself. Creates a draft unless `publish` (and nothing needs review).
    Raises ImportRejected.
    """
    raw = _as_bytes(raw)
    fmt = _guess_format(raw, fmt, filename)
    text = _decode(raw, fmt)
    checksum = payload_checksum(text)
    existing = _already_imported(checksum)
    if existing:
        return ImportResult("snapshot", existing, created=False)

    errors = _Errors()
    if fmt == CSV:
        rows = _read_csv(text, MEASUREMENT_COLUMNS, errors)
        file_meta = {}
    else:
        rows, file_meta = _read_json(text, "measurements", MEASUREMENT_COLUMNS, SNAPSHOT_META, errors)
    snapshot = _build_snapshot(_merge_meta(meta, file_meta, SNAPSHOT_META, errors), text, checksum, errors)
    if errors:  # no snapshot to write into; the rows are still checked, so every error is listed at once
        _clean_measurements(rows, errors)
        errors.raise_if_any()

    def write(replaced):
        snapshot.save()
        catalogue = _Catalogue(rows)  # its queries first: the COPY below holds the connection
        # Rows go to the database as they pass (MeasurementWriter), so it stores them while the rest is
        # checked; an error found later rolls the transaction back, snapshot and rows alike.
        with MeasurementWriter(snapshot) as writer:
            measurements = _clean_measurements(rows, errors, catalogue, send=writer.write)
        errors.raise_if_any()
        concerns = measurement_review(snapshot.source, measurements)
        if concerns:
            # update(), not save(): a save re-indexes the snapshot's references, loading every row just sent.
            snapshot.review_notes = review_text(concerns)
            Snapshot.objects.filter(pk=snapshot.pk).update(review_notes=snapshot.review_notes)
        return concerns, len(measurements)

    return _write("snapshot", snapshot, checksum, write, publish, filename)


def import_prices(raw, fmt=None, *, filename=None, publish=True, **meta):
    """Import a price list from CSV or JSON bytes.

    The file is kept on a snapshot of the price-list `source` (published unless publish=False or
    something needs review; a draft snapshot's prices are not used) and each price links to it.
    `meta` may give `source`, `measured_at` and a default `effective_date` for rows without one.
    """
    raw = _as_bytes(raw)
    fmt = _guess_format(raw, fmt, filename)
    text = _decode(raw, fmt)
    checksum = payload_checksum(text)
    existing = _already_imported(checksum)
    if existing:
        return ImportResult("prices", existing, created=False)

    errors = _Errors()
    if fmt == CSV:
        # A default effective date (command option / form field) makes the column optional.
        columns = (
            _make_optional(PRICE_COLUMNS, "effective_date") if meta.get("effective_date") else PRICE_COLUMNS
        )
        rows, file_meta = _read_csv(text, columns, errors), {}
    else:
        rows, file_meta = _read_json(
            text, "prices", _make_optional(PRICE_COLUMNS, "effective_date"), PRICE_META, errors
        )
    merged = _merge_meta(meta, file_meta, PRICE_META, errors)
    merged.setdefault("measured_at", timezone.now())
    snapshot = _build_snapshot(
        {k: v for k, v in merged.items() if k != "effective_date"}, text, checksum, errors
    )
    default_effective = None
    if merged.get("effective_date") not in (None, ""):
        default_effective = _parse_date_value(merged["effective_date"], errors, None, "effective_date")
    replaced = replaced_snapshot(snapshot)
    prices = _clean_prices(rows, snapshot, default_effective, errors, other_snapshot_prices(replaced))
    errors.raise_if_any()

    def write(replaced):
        # Checked again under the source's lock: another import may have added one of these meanwhile.
        late = _Errors()
        _check_existing_prices(list(enumerate(prices, start=1)), late, other_snapshot_prices(replaced))
        if late:
            raise ImportRejected(
                [ImportIssue(_("A price in this file was added meanwhile: %(error)s") % {"error": late[0].message})]
            )
        concerns = price_review(prices)
        snapshot.review_notes = review_text(concerns)
        snapshot.save()
        for price in prices:
            price.snapshot = snapshot
            price.currency = price.currency.strip().upper()
        Price.objects.bulk_create(prices)
        return concerns, len(prices)

    return _write("prices", snapshot, checksum, write, publish, filename)


def _write(kind, snapshot, checksum, write_rows, publish, filename):
    """The shared transaction: lock, re-check for a duplicate, link a correction, write, publish."""
    try:
        with transaction.atomic():
            existing = _lock_and_recheck(checksum)
            if existing:
                return ImportResult(kind, existing, created=False)
            lock_source(snapshot)
            replaced = replaced_snapshot(snapshot)
            if replaced is not None:
                link_correction(snapshot, replaced, filename)
            concerns, count = write_rows(replaced)
            if publish and not concerns:
                if replaced is not None:
                    replaced.publish_correction(snapshot, snapshot.correction_note)
                else:
                    snapshot.publish()
                invalidate_after_commit(keys=())  # the publish bumped the snapshot's models
    except IntegrityError as exc:
        # The unique payload constraint: the same file won a race against this import.
        existing = (
            Snapshot.objects.filter(source_id=snapshot.source_id, measured_at=snapshot.measured_at, checksum=checksum)
            .defer("raw_payload")
            .first()
        )
        if existing is not None:
            return ImportResult(kind, existing, created=False)
        raise ImportRejected([ImportIssue(_("The import could not be written: %(error)s") % {"error": exc})]) from None
    return ImportResult(kind, snapshot, created=True, count=count, concerns=concerns)
