"""Reading an import file into rows: format detection, decoding, CSV and JSON, and single values."""

import csv
import functools
import io
import json
from datetime import datetime, time
from decimal import Decimal, InvalidOperation
from pathlib import PurePath

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from .formats import (
    CSV,
    FORMATS,
    JSON,
    ImportIssue,
    ImportRejected,
)


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
    width, every_column_named = len(names), all(names)
    try:
        for number, cells in enumerate(reader, start=2):
            if every_column_named and len(cells) == width and cells[0].strip():
                rows.append((number, dict(zip(names, cells, strict=True))))  # the usual row: no checks needed
                continue
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


def _text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value).strip()


def _parse_number(value, errors, row, column, digits, required=True):
    if type(value) is str:  # a CSV cell or a JSON string: the usual case, checked first
        shown = value.strip()
        if shown:
            try:
                number = Decimal(shown)
            except InvalidOperation:
                pass
            else:
                if number.is_finite() and abs(number) < _limit(digits):
                    return number if _few_places(shown, digits[1]) else _keep_places(number, digits[1])
    return _parse_number_carefully(value, errors, row, column, digits, required)


def _few_places(shown, places):
    """Whether the number written `shown` has at most `places` decimals (False when unsure): reading
    the text is much cheaper than Decimal.as_tuple() for the usual "283.4"."""
    point = shown.find(".")
    return "e" not in shown and "E" not in shown and (point < 0 or len(shown) - point - 1 <= places)


@functools.cache
def _limit(digits):
    return Decimal(10) ** digits[0]


def _keep_places(number, places):
    # Upstream floats carry more decimals than any figure is shown with; keep six.
    return number.quantize(Decimal(1).scaleb(-places)) if number.as_tuple().exponent < -places else number


def _parse_number_carefully(value, errors, row, column, digits, required):
    """_parse_number for any value, with the error that says what is wrong with it."""
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
    if abs(number) >= _limit(digits):
        errors.add(_("'%(value)s' is too large") % {"value": shown}, row, column)
        return None
    return _keep_places(number, digits[1])


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
