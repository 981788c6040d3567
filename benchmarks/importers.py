"""CSV and JSON import of a measured snapshot (with its measurements) and of price lists.

The formats are documented in docs/import-formats.md. Every row is checked before anything
is written, and a file with any error writes nothing: editors fix the file and import it
again rather than untangling a half-imported one. The raw bytes are kept on the snapshot
with their SHA-256, so importing the same file twice changes nothing.
"""

import csv
import hashlib
import io
import json
from dataclasses import dataclass
from datetime import datetime, time
from decimal import Decimal, InvalidOperation
from pathlib import PurePath

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .cache import bump_data_generation
from .metrics import METRICS
from .models import Endpoint, LanguageModel, Measurement, Price, Provider, Snapshot, Source

CSV = "csv"
JSON = "json"
FORMATS = (CSV, JSON)

MEASUREMENT_COLUMNS = {"required": ("provider", "model", "metric", "value"), "optional": ("tier",)}
PRICE_COLUMNS = {
    "required": ("provider", "model", "input_per_m", "output_per_m", "currency", "effective_date"),
    "optional": ("tier", "promo_input_per_m", "promo_output_per_m", "promo_until", "source"),
}
# Keys a snapshot JSON file may carry beside its "measurements" list; the same values can be
# given to the importer (command options, upload form) for a CSV file.
SNAPSHOT_META = (
    "source",
    "measured_at",
    "fetched_at",
    "workload",
    "effort",
    "concurrency",
    "sample_size",
    "window_start",
    "window_end",
)
PRICE_META = ("source", "measured_at", "effective_date")

# Field widths of the model's DecimalFields: (digits before the point, decimal places).
MEASUREMENT_DIGITS = (10, 6)
PRICE_DIGITS = (6, 6)
MAX_ERRORS = 200  # enough to fix a file; more would bury the first ones


@dataclass(frozen=True)
class ImportIssue:
    """One problem in an import file. `row` counts like a spreadsheet (CSV header = row 1)."""

    message: str
    row: int | None = None
    column: str | None = None

    def __str__(self):
        if self.row is not None and self.column:
            where = _("row %(row)s, column %(column)s") % {"row": self.row, "column": self.column}
        elif self.row is not None:
            where = _("row %(row)s") % {"row": self.row}
        elif self.column:
            where = _("field %(column)s") % {"column": self.column}
        else:
            return str(self.message)
        return f"{where}: {self.message}"


class ImportRejected(Exception):
    """The file has errors; nothing was written."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__("\n".join(str(error) for error in self.errors))


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


# --- reading ----------------------------------------------------------------------------------


class _Errors(list):
    def add(self, message, row=None, column=None):
        self.append(ImportIssue(str(message), row, column))

    def raise_if_any(self):
        if self:
            raise ImportRejected(self[:MAX_ERRORS])


def _as_bytes(raw):
    if isinstance(raw, str):
        return raw.encode()
    if hasattr(raw, "read"):
        raw = raw.read()
    return bytes(raw)


def _guess_format(raw, fmt, filename):
    if fmt:
        fmt = fmt.lower().lstrip(".")
        if fmt not in FORMATS:
            raise ImportRejected(
                [ImportIssue(_("Unknown format “%(fmt)s”; use csv or json.") % {"fmt": fmt})]
            )
        return fmt
    if filename:
        suffix = PurePath(filename).suffix.lower().lstrip(".")
        if suffix in FORMATS:
            return suffix
    start = raw.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    return JSON if start in (b"{", b"[") else CSV


def _decode(raw, fmt):
    if not raw.strip():
        raise ImportRejected([ImportIssue(_("The file is empty."))])
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportRejected(_encoding_errors(raw, exc, fmt)) from None


def _encoding_errors(raw, exc, fmt):
    """Point at the rows (and, for CSV, the cells) holding bytes that are not UTF-8."""
    hint = _(
        "the file is not UTF-8 text (byte 0x%(byte)02X cannot be read); save it as UTF-8 and import it again"
    ) % {"byte": raw[exc.start]}
    if fmt == CSV:
        issues = []
        rows = csv.reader(io.StringIO(raw.decode("utf-8-sig", errors="replace"), newline=""))
        header = None
        for number, cells in enumerate(rows, start=1):
            if header is None:
                header = [cell.strip().lower() for cell in cells]
            for index, cell in enumerate(cells):
                if "\ufffd" in cell:
                    column = header[index] if index < len(header) and number > 1 else None
                    issues.append(ImportIssue(hint, number, column))
            if len(issues) >= 10:
                break
        if issues:
            return issues
    return [ImportIssue(hint, raw[: exc.start].count(b"\n") + 1)]


def _make_optional(columns, name):
    return {
        "required": tuple(c for c in columns["required"] if c != name),
        "optional": columns["optional"] + (name,),
    }


def _read_csv(text, columns, errors):
    """[(row number, {column: text})]; header problems are reported against row 1."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        errors.add(_("The file has no header row."), 1)
        errors.raise_if_any()
    names = [cell.strip().lower() for cell in header]
    known = columns["required"] + columns["optional"]
    seen = set()
    for name in names:
        if not name:
            continue
        if name in seen:
            errors.add(_("the column appears twice"), 1, name)
        elif name not in known:
            errors.add(_("unknown column (known columns: %(known)s)") % {"known": ", ".join(known)}, 1, name)
        seen.add(name)
    for name in columns["required"]:
        if name not in seen:
            errors.add(
                _("the column is missing (required columns: %(required)s)")
                % {"required": ", ".join(columns["required"])},
                1,
                name,
            )
    errors.raise_if_any()  # without the right columns no row can be checked
    rows = []
    try:
        for number, cells in enumerate(reader, start=2):
            if not any(cell.strip() for cell in cells):
                continue  # blank lines between blocks are harmless
            if len(cells) > len(names) and any(cell.strip() for cell in cells[len(names) :]):
                errors.add(
                    _("%(cells)s cells but the header has %(columns)s columns")
                    % {"cells": len(cells), "columns": len(names)},
                    number,
                )
                continue
            rows.append(
                (number, {name: (cells[i] if i < len(cells) else "") for i, name in enumerate(names) if name})
            )
    except csv.Error as exc:
        errors.add(_("the CSV cannot be read: %(error)s") % {"error": exc}, reader.line_num)
    if not rows and not errors:
        errors.add(_("The file has a header but no data rows."), 2)
        errors.raise_if_any()
    return rows


def _read_json(text, list_key, columns, meta_keys, errors):
    """[(row number, {key: value})] from the list under `list_key`, plus the file's metadata."""
    try:
        data = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        errors.add(
            _("the file is not valid JSON: %(error)s (line %(line)s, character %(col)s)")
            % {"error": exc.msg, "line": exc.lineno, "col": exc.colno},
            exc.lineno,
        )
        errors.raise_if_any()
    if isinstance(data, list):
        data = {list_key: data}
    if not isinstance(data, dict):
        errors.add(_("The file must hold a JSON object with a “%(key)s” list.") % {"key": list_key})
        errors.raise_if_any()
    for key in data:
        if key != list_key and key not in meta_keys:
            errors.add(
                _("unknown key (known keys: %(known)s)")
                % {"known": ", ".join((list_key,) + tuple(meta_keys))},
                None,
                key,
            )
    items = data.get(list_key)
    if not isinstance(items, list) or not items:
        errors.add(_("The file must hold a non-empty “%(key)s” list.") % {"key": list_key}, None, list_key)
        errors.raise_if_any()
    known = columns["required"] + columns["optional"]
    rows = []
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            errors.add(_("each entry must be a JSON object"), number)
            continue
        row_ok = True
        for key in item:
            if key not in known:
                errors.add(
                    _("unknown key (known keys: %(known)s)") % {"known": ", ".join(known)}, number, key
                )
                row_ok = False
        for key in columns["required"]:
            if key not in item:
                errors.add(_("the key is missing"), number, key)
                row_ok = False
        if row_ok:
            rows.append((number, item))
    return rows, {k: v for k, v in data.items() if k in meta_keys}


def _merge_meta(given, from_file, keys, errors):
    """File values and importer arguments together; a disagreement is an error, not a silent choice."""
    merged = {}
    for key in keys:
        mine, theirs = given.get(key), from_file.get(key)
        if mine in (None, ""):
            value = theirs
        elif theirs in (None, "") or _same_value(key, mine, theirs):
            value = mine
        else:
            errors.add(
                _("the file says “%(file)s” but “%(given)s” was given") % {"file": theirs, "given": mine},
                None,
                key,
            )
            value = theirs  # checked further as the file's, so one disagreement is one error
        if value not in (None, ""):
            merged[key] = value
    return merged


def _same_value(key, given, in_file):
    scratch = _Errors()
    if key == "source":
        found = _resolve_sources([given, in_file])
        a = given if isinstance(given, Source) else _source_or_error(given, found, scratch, None, key)
        b = _source_or_error(in_file, found, scratch, None, key)
        return a is not None and b is not None and a.pk == b.pk
    if key == "effective_date":
        return _parse_date_value(given, scratch, None, key) == _parse_date_value(in_file, scratch, None, key)
    if key in ("measured_at", "fetched_at", "window_start", "window_end"):
        return _parse_datetime_value(given, scratch, key) == _parse_datetime_value(in_file, scratch, key)
    return _text(given) == _text(in_file)


# --- cleaning ---------------------------------------------------------------------------------


def _text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value).strip()


def _parse_number(value, errors, row, column, digits, required=True):
    if isinstance(value, bool):
        errors.add(_("%(value)s is not a number") % {"value": _text(value)}, row, column)
        return None
    if isinstance(value, int | Decimal):
        number = Decimal(value)
        shown = value
    else:
        shown = _text(value)
        if not shown:
            if required:
                errors.add(_("a value is required"), row, column)
            return None
        try:
            number = Decimal(shown)
        except InvalidOperation:
            hint = _(" (use a dot as the decimal separator)") if "," in shown else ""
            errors.add(_("'%(value)s' is not a number%(hint)s") % {"value": shown, "hint": hint}, row, column)
            return None
    if not number.is_finite():
        errors.add(_("'%(value)s' is not a finite number") % {"value": shown}, row, column)
        return None
    whole, places = digits
    if abs(number) >= Decimal(10) ** whole:
        errors.add(_("'%(value)s' is too large") % {"value": shown}, row, column)
        return None
    # Upstream floats carry more decimals than any figure is shown with; keep six.
    return number.quantize(Decimal(1).scaleb(-places)) if number.as_tuple().exponent < -places else number


def _parse_date_value(value, errors, row, column):
    text = _text(value)
    parsed = parse_date(text) if text else None
    if parsed is None:
        try:
            parsed = parse_date(text[:10]) if parse_datetime(text) else None
        except ValueError:
            parsed = None
    if parsed is None:
        errors.add(_("'%(value)s' is not a date (use YYYY-MM-DD)") % {"value": text}, row, column)
    return parsed


def _parse_datetime_value(value, errors, column):
    if isinstance(value, datetime):
        parsed = value
    else:
        text = _text(value)
        try:
            parsed = parse_datetime(text)
        except ValueError:
            parsed = None
        if parsed is None:
            day = parse_date(text) if text else None
            parsed = datetime.combine(day, time()) if day else None
        if parsed is None:
            errors.add(
                _("'%(value)s' is not a date and time (use ISO 8601, e.g. 2026-11-28T14:00:00Z)")
                % {"value": text},
                None,
                column,
            )
            return None
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed)
    return parsed


def _resolve_sources(values):
    """{given value: Source} for ids and URLs, in one query."""
    keys = {_text(getattr(v, "pk", v)) for v in values if _text(getattr(v, "pk", v))}
    ids = [int(k) for k in keys if k.isdigit()]
    urls = [k for k in keys if not k.isdigit()]
    found = {}
    if ids or urls:
        for source in Source.objects.filter(Q(pk__in=ids) | Q(url__in=urls)):
            found.setdefault(str(source.pk), []).append(source)
            found.setdefault(source.url, []).append(source)
    return found


def _source_or_error(value, found, errors, row, column):
    key = _text(getattr(value, "pk", value))
    matches = found.get(key, [])
    if not matches:
        errors.add(
            _("unknown source “%(value)s” (give the source's id or URL)") % {"value": key}, row, column
        )
        return None
    if len(matches) > 1:
        errors.add(
            _("several sources have the URL “%(value)s”; give the source's id") % {"value": key}, row, column
        )
        return None
    return matches[0]


def _build_snapshot(meta, text, checksum, errors):
    """An unsaved Snapshot from the metadata, with field errors reported by name."""
    source = None
    if meta.get("source") in (None, ""):
        errors.add(_("a source is required (its id or URL)"), None, "source")
    else:
        source = (
            meta["source"]
            if isinstance(meta["source"], Source)
            else _source_or_error(meta["source"], _resolve_sources([meta["source"]]), errors, None, "source")
        )
    values = {}
    if meta.get("measured_at") in (None, ""):
        errors.add(_("say when the data was measured (ISO 8601 date and time)"), None, "measured_at")
    for key in ("measured_at", "fetched_at", "window_start", "window_end"):
        if meta.get(key) not in (None, ""):
            values[key] = _parse_datetime_value(meta[key], errors, key)
    for key in ("concurrency", "sample_size"):
        if meta.get(key) not in (None, ""):
            raw = meta[key]
            if isinstance(raw, bool) or not _text(raw).isdigit():
                errors.add(
                    _("'%(value)s' is not a whole number of 0 or more") % {"value": _text(raw)}, None, key
                )
            else:
                values[key] = int(_text(raw))
    for key in ("workload", "effort"):
        if meta.get(key) not in (None, ""):
            values[key] = _text(meta[key])
    snapshot = Snapshot(
        source=source,
        raw_payload=text,
        checksum=checksum,
        status=Snapshot.Status.DRAFT,
        **{k: v for k, v in values.items() if v is not None},
    )
    if source is not None and snapshot.measured_at is not None:
        try:
            snapshot.full_clean(exclude=["supersedes", "status"])
        except ValidationError as exc:
            for name, messages in exc.message_dict.items():
                for message in messages:
                    errors.add(message, None, None if name == "__all__" else name)
    return snapshot


class _Catalogue:
    """Providers, models and endpoints named in a file, fetched in three queries."""

    def __init__(self, rows):
        self.providers = self._by_slug(Provider, {_text(row.get("provider")) for _, row in rows})
        self.models = self._by_slug(LanguageModel, {_text(row.get("model")) for _, row in rows})
        self.endpoints = {}
        if self.providers and self.models:
            self.endpoints = {
                (e.provider_id, e.model_id, e.tier.strip().casefold()): e
                for e in Endpoint.objects.filter(
                    provider__in=list(self.providers.values()), model__in=list(self.models.values())
                )
            }

    @staticmethod
    def _by_slug(model, slugs):
        # A slug typed "Fireworks" in a spreadsheet still means "fireworks".
        query = Q()
        for slug in filter(None, slugs):
            query |= Q(slug__iexact=slug)
        return {obj.slug.lower(): obj for obj in model.objects.filter(query)} if query else {}

    def endpoint(self, row, number, errors):
        provider_slug, model_slug, tier = (
            _text(row.get("provider")),
            _text(row.get("model")),
            _text(row.get("tier")),
        )
        provider = self.providers.get(provider_slug.lower())
        model = self.models.get(model_slug.lower())
        if not provider_slug:
            errors.add(_("a provider slug is required"), number, "provider")
        elif provider is None:
            errors.add(
                _("unknown provider “%(slug)s” (use the provider's slug)") % {"slug": provider_slug},
                number,
                "provider",
            )
        if not model_slug:
            errors.add(_("a model slug is required"), number, "model")
        elif model is None:
            errors.add(
                _("unknown model “%(slug)s” (use the model's slug)") % {"slug": model_slug}, number, "model"
            )
        if provider is None or model is None:
            return None
        endpoint = self.endpoints.get((provider.pk, model.pk, tier.casefold()))
        if endpoint is None:
            errors.add(
                _("%(provider)s has no endpoint for %(model)s in tier “%(tier)s”")
                % {"provider": provider.slug, "model": model.slug, "tier": tier or _("standard")},
                number,
                "tier",
            )
        return endpoint


def _clean_measurements(rows, errors):
    catalogue = _Catalogue(rows)
    measurements, seen = [], {}
    for number, row in rows:
        endpoint = catalogue.endpoint(row, number, errors)
        metric_key = _text(row.get("metric"))
        metric = METRICS.get(metric_key)
        if metric is None:
            if metric_key:
                errors.add(
                    _("unknown metric “%(metric)s” (known metrics: %(known)s)")
                    % {"metric": metric_key, "known": ", ".join(METRICS)},
                    number,
                    "metric",
                )
            else:
                errors.add(_("a metric is required"), number, "metric")
        value = _parse_number(row.get("value"), errors, number, "value", MEASUREMENT_DIGITS)
        if metric is not None and value is not None:
            problem = metric.validate(value)
            if problem:
                errors.add(problem, number, "value")
                value = None
        if endpoint is not None and metric is not None:
            key = (endpoint.pk, metric.key)
            if key in seen:
                errors.add(
                    _("duplicate of row %(first)s (same endpoint and metric)") % {"first": seen[key]},
                    number,
                    "metric",
                )
                continue
            seen[key] = number
        if endpoint is not None and metric is not None and value is not None:
            measurements.append(Measurement(endpoint=endpoint, metric=metric.key, value=value))
    return measurements


def _clean_prices(rows, snapshot, default_effective, errors):
    catalogue = _Catalogue(rows)
    row_sources = _resolve_sources([row["source"] for _, row in rows if _text(row.get("source"))])
    prices, seen = [], {}
    for number, row in rows:
        endpoint = catalogue.endpoint(row, number, errors)
        source = snapshot.source if snapshot.source_id else None
        if _text(row.get("source")):
            source = _source_or_error(row["source"], row_sources, errors, number, "source")
        local = _Errors()
        numbers = {
            name: _parse_number(
                row.get(name),
                local,
                number,
                name,
                PRICE_DIGITS,
                required=name in ("input_per_m", "output_per_m"),
            )
            for name in ("input_per_m", "output_per_m", "promo_input_per_m", "promo_output_per_m")
        }
        effective = default_effective
        if _text(row.get("effective_date")):
            effective = _parse_date_value(row["effective_date"], local, number, "effective_date")
        elif default_effective is None:
            local.add(_("an effective date is required"), number, "effective_date")
        promo_until = None
        if _text(row.get("promo_until")):
            promo_until = _parse_date_value(row["promo_until"], local, number, "promo_until")
        price = Price(
            endpoint=endpoint,
            source=source,
            currency=_text(row.get("currency")).upper(),
            effective_date=effective,
            promo_until=promo_until,
            **numbers,
        )
        if not local:
            # The model's own rules (currency, no negative price, a promotion needs an end date).
            try:
                price.clean()
            except ValidationError as exc:
                for name, messages in exc.message_dict.items():
                    for message in messages:
                        local.add(message, number, name)
        errors.extend(local)
        if endpoint is None or source is None or effective is None:
            continue
        key = (endpoint.pk, effective, source.pk)
        if key in seen:
            errors.add(
                _("duplicate of row %(first)s (same endpoint, source and effective date)")
                % {"first": seen[key]},
                number,
                "effective_date",
            )
            continue
        seen[key] = number
        if not local:
            prices.append((number, price))
    if seen:
        _check_existing_prices(prices, errors)
    return [price for _, price in prices]


def _check_existing_prices(numbered_prices, errors):
    """A price already stored for the same endpoint, source and day would collide with the file's."""
    if not numbered_prices:
        return
    by_key = {(p.endpoint_id, p.effective_date, p.source_id): n for n, p in numbered_prices}
    clash = Q()
    for endpoint_id, effective, source_id in by_key:
        clash |= Q(endpoint_id=endpoint_id, effective_date=effective, source_id=source_id)
    for stored in Price.objects.filter(clash).only("pk", "endpoint_id", "effective_date", "source_id"):
        number = by_key[(stored.endpoint_id, stored.effective_date, stored.source_id)]
        errors.add(
            _("a price for this endpoint, source and effective date is already stored (price #%(pk)s)")
            % {"pk": stored.pk},
            number,
            "effective_date",
        )


# --- writing ----------------------------------------------------------------------------------


def _already_imported(checksum):
    return Snapshot.objects.filter(checksum=checksum).defer("raw_payload").order_by("pk").first()


def _lock_and_recheck(checksum):
    """Serialise imports of the same bytes so two simultaneous uploads make one snapshot."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [checksum])
    return _already_imported(checksum)
