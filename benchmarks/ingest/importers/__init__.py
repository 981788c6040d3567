"""CSV and JSON import of a measured snapshot (with its measurements) and of price lists.

The formats are documented in docs/import-formats.md. Every row is checked before anything
is written, and a file with any error writes nothing: editors fix the file and import it
again rather than untangling a half-imported one. The raw bytes are kept on the snapshot
with their SHA-256, so importing the same file twice changes nothing.
"""

import hashlib
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ...cache import bump_data_generation
from ...models import Measurement, Price, Snapshot
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

    @property
    def summary(self):
        status = self.snapshot.get_status_display().lower()
        if not self.created:
            return _(
                "This file was already imported as snapshot #%(pk)s (%(status)s); nothing was changed."
            ) % {"pk": self.snapshot.pk, "status": status}
        values = {"count": self.count, "pk": self.snapshot.pk, "status": status}
        if self.kind == "prices":
            return (
                ngettext(
                    "Imported %(count)s price, recorded in snapshot #%(pk)s (%(status)s).",
                    "Imported %(count)s prices, recorded in snapshot #%(pk)s (%(status)s).",
                    self.count,
                )
                % values
            )
        return (
            ngettext(
                "Imported %(count)s measurement into snapshot #%(pk)s (%(status)s).",
                "Imported %(count)s measurements into snapshot #%(pk)s (%(status)s).",
                self.count,
            )
            % values
        )


# --- public entry points ----------------------------------------------------------------------


def import_snapshot(raw, fmt=None, *, filename=None, publish=False, **meta):
    """Import a snapshot with its measurements from CSV or JSON bytes.

    `meta` holds snapshot fields (SNAPSHOT_META) that a CSV file cannot carry; a JSON file
    may carry them itself. Creates a draft unless `publish`. Raises ImportRejected.
    """
    raw = _as_bytes(raw)
    checksum = hashlib.sha256(raw).hexdigest()
    existing = _already_imported(checksum)
    if existing:
        return ImportResult("snapshot", existing, created=False)

    fmt = _guess_format(raw, fmt, filename)
    text = _decode(raw, fmt)
    errors = _Errors()
    if fmt == CSV:
        rows = _read_csv(text, MEASUREMENT_COLUMNS, errors)
        file_meta = {}
    else:
        rows, file_meta = _read_json(text, "measurements", MEASUREMENT_COLUMNS, SNAPSHOT_META, errors)
    snapshot = _build_snapshot(_merge_meta(meta, file_meta, SNAPSHOT_META, errors), text, checksum, errors)
    measurements = _clean_measurements(rows, errors)
    errors.raise_if_any()

    with transaction.atomic():
        existing = _lock_and_recheck(checksum)
        if existing:
            return ImportResult("snapshot", existing, created=False)
        snapshot.save()
        for measurement in measurements:
            measurement.snapshot = snapshot
        Measurement.objects.bulk_create(measurements)
        if publish:
            snapshot.publish()
            transaction.on_commit(bump_data_generation)
    return ImportResult("snapshot", snapshot, created=True, count=len(measurements))


def import_prices(raw, fmt=None, *, filename=None, publish=True, **meta):
    """Import a price list from CSV or JSON bytes.

    The file is kept on a snapshot of the price-list `source` (published unless publish=False,
    and a draft snapshot's prices are not used) and each price links to it. `meta` may give
    `source`, `measured_at` and a default `effective_date` for rows without one.
    """
    raw = _as_bytes(raw)
    checksum = hashlib.sha256(raw).hexdigest()
    existing = _already_imported(checksum)
    if existing:
        return ImportResult("prices", existing, created=False)

    fmt = _guess_format(raw, fmt, filename)
    text = _decode(raw, fmt)
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
    prices = _clean_prices(rows, snapshot, default_effective, errors)
    errors.raise_if_any()

    try:
        with transaction.atomic():
            existing = _lock_and_recheck(checksum)
            if existing:
                return ImportResult("prices", existing, created=False)
            snapshot.save()
            for price in prices:
                price.snapshot = snapshot
                price.currency = price.currency.strip().upper()
            Price.objects.bulk_create(prices)
            if publish:
                snapshot.publish()
                transaction.on_commit(bump_data_generation)
    except IntegrityError as exc:
        # Another import added one of these prices between our check and our write.
        raise ImportRejected(
            [ImportIssue(_("A price in this file was added meanwhile: %(error)s") % {"error": exc})]
        ) from None
    return ImportResult("prices", snapshot, created=True, count=len(prices))
