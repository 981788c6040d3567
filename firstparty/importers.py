"""Import of per-request records an external runner wrote (JSONL or CSV; format in docs/first-party-runs.md).

All or nothing: every row is checked first and any bad row rejects the whole file with row/column
errors. A good file is kept verbatim with its SHA-256 (ImportedFile) and its rows are inserted in one
transaction, with PostgreSQL COPY (batched bulk_create elsewhere).
"""

import csv
import hashlib
import io
import json
import math
import re
from datetime import datetime

from django.db import connection, transaction
from django.utils.translation import gettext as _

from benchmarks.models import Endpoint

from .models import ImportedFile, RequestRecord, Run, tokens_per_second

REQUIRED = ("provider", "model", "started_at", "outcome")
OPTIONAL = ("tier", "region", "ttft_s", "e2e_s", "output_tokens", "token_count", "http_status", "error")
# tokens_per_second is derived from the other columns; a file may carry it (our own CSV export does),
# but the stored value is always recomputed so there is one definition.
DERIVED = ("tokens_per_second",)
COLUMNS = REQUIRED + OPTIONAL + DERIVED
ALLOWED = frozenset(COLUMNS)
OUTCOMES = {choice.value for choice in RequestRecord.Outcome}
COMPLETED = {str(o) for o in RequestRecord.COMPLETED}
MAX_SECONDS = 3600.0
MAX_TOKENS = 1_000_000
MAX_ERRORS = 50
TOKEN_COUNTS = frozenset({"usage", "chunks"})
TOKENIZER = re.compile(r"tokenizer:[\w./+-]{1,50}")
COPY_COLUMNS = ("endpoint_id", "run_id", "file_id", "started_at", "region", "ttft_s", "e2e_s", "output_tokens",
                "token_count", "tokens_per_second", "outcome", "http_status", "error")


class RecordImportError(ValueError):
    def __init__(self, errors):
        self.errors = errors
        super().__init__("\n".join(errors))


def read_rows(text, name):
    """(row number, dict) pairs; the format follows the file name (.jsonl/.ndjson or .csv)."""
    lower = name.lower()
    if lower.endswith((".jsonl", ".ndjson")):
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as exc:
                yield number, exc
                continue
            yield number, row if isinstance(row, dict) else ValueError(_("not a JSON object"))
    elif lower.endswith(".csv"):
        reader = csv.DictReader(io.StringIO(text))
        for number, row in enumerate(reader, start=2):  # row 1 is the header
            yield number, {k: v for k, v in row.items() if v not in ("", None)} if None not in row else ValueError(
                _("more cells than header columns")
            )
    else:
        raise RecordImportError([_("%(name)s: use a .jsonl or .csv file.") % {"name": name}])


def _number(value, column, integer=False):
    if isinstance(value, bool):
        raise ValueError(_("column %(column)s: must be a number") % {"column": column})
    try:
        number = int(value) if integer else float(value)
    except (TypeError, ValueError):
        raise ValueError(_("column %(column)s: must be a number, got %(value)r") % {"column": column, "value": value}) from None
    if not integer and not math.isfinite(number):
        raise ValueError(_("column %(column)s: must be finite") % {"column": column})
    return number


class RowChecker:
    def __init__(self):
        self.endpoints = {
            (e.provider.slug, e.model.slug, e.tier): e.pk for e in Endpoint.objects.select_related("provider", "model")
        }

    def check(self, row):
        """A dict of record fields, or raise ValueError("column: message")."""
        if not row.keys() <= ALLOWED:
            unknown = sorted(set(row) - ALLOWED)
            raise ValueError(_("unknown column(s) %(columns)s") % {"columns": ", ".join(unknown)})
        for column in REQUIRED:
            if row.get(column) in (None, ""):
                raise ValueError(_("column %(column)s: required") % {"column": column})
        key = (str(row["provider"]), str(row["model"]), str(row.get("tier") or ""))
        if key not in self.endpoints:
            raise ValueError(_("columns provider/model/tier: no endpoint %(key)s") % {"key": "/".join(k for k in key if k)})
        try:
            started = datetime.fromisoformat(str(row["started_at"]).replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(_("column started_at: not an ISO 8601 time")) from None
        if started.tzinfo is None:
            raise ValueError(_("column started_at: give a time zone (e.g. 2026-09-03T09:00:00Z)"))
        outcome = str(row["outcome"])
        if outcome not in OUTCOMES:
            raise ValueError(_("column outcome: %(value)r is not one of %(choices)s")
                             % {"value": outcome, "choices": ", ".join(sorted(OUTCOMES))})
        fields = {"endpoint_id": self.endpoints[key], "started_at": started, "outcome": outcome,
                  "region": str(row.get("region") or "")[:50], "error": str(row.get("error") or "")[:300],
                  "token_count": self._token_count(row.get("token_count"))}
        for column in ("ttft_s", "e2e_s"):
            value = row.get(column)
            fields[column] = None if value in (None, "") else self._seconds(value, column)
        tokens = row.get("output_tokens")
        fields["output_tokens"] = None if tokens in (None, "") else self._tokens(tokens)
        status = row.get("http_status")
        fields["http_status"] = None if status in (None, "") else self._status(status)
        if outcome in COMPLETED:
            for column in ("ttft_s", "e2e_s", "output_tokens", "token_count"):
                if fields[column] in (None, ""):
                    raise ValueError(_("column %(column)s: required for a completed request") % {"column": column})
            if fields["e2e_s"] < fields["ttft_s"]:
                raise ValueError(_("column e2e_s: ends before the first token (ttft_s)"))
        if outcome == "http_error" and fields["http_status"] is None:
            raise ValueError(_("column http_status: required for an HTTP error"))
        fields["tokens_per_second"] = tokens_per_second(fields["output_tokens"], fields["ttft_s"], fields["e2e_s"])
        return fields

    @staticmethod
    def _token_count(value):
        # A token figure is only comparable when its counting method is named: a tokenizer by its name.
        text = str(value or "").strip()
        if text and text not in TOKEN_COUNTS and not TOKENIZER.fullmatch(text):
            raise ValueError(_("column token_count: %(value)r is not usage, chunks or tokenizer:<name>") % {"value": text})
        return text

    @staticmethod
    def _seconds(value, column):
        number = _number(value, column)
        if not 0 <= number <= MAX_SECONDS:
            raise ValueError(_("column %(column)s: %(value)s s is outside 0–3600 s") % {"column": column, "value": value})
        return number

    @staticmethod
    def _tokens(value):
        number = _number(value, "output_tokens", integer=True)
        if not 0 <= number <= MAX_TOKENS:
            raise ValueError(_("column output_tokens: %(value)s is not a plausible token count") % {"value": value})
        return number

    @staticmethod
    def _status(value):
        number = _number(value, "http_status", integer=True)
        if not 100 <= number <= 599:
            raise ValueError(_("column http_status: %(value)s is not an HTTP status") % {"value": value})
        return number


def parse(text, name):
    checker, records, errors = RowChecker(), [], []
    for number, row in read_rows(text, name):
        if isinstance(row, Exception):
            errors.append(_("row %(row)s: %(error)s") % {"row": number, "error": row})
            continue
        try:
            records.append(checker.check(row))
        except ValueError as exc:
            errors.append(_("row %(row)s: %(error)s") % {"row": number, "error": exc})
        if len(errors) >= MAX_ERRORS:
            errors.append(_("… stopped after %(count)s errors") % {"count": MAX_ERRORS})
            break
    if not errors and not records:
        errors.append(_("%(name)s holds no records.") % {"name": name})
    if errors:
        raise RecordImportError(errors)
    return records


def _copy_value(value):
    """One value in PostgreSQL's COPY text format."""
    if value is None:
        return "\\N"
    if isinstance(value, str):
        return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def _copy(records, run_id, file_id, batch=20_000):
    """COPY in text format, written in large blocks: formatting the lines ourselves is several times faster
    than adapting each value through write_row."""
    sql = f"COPY firstparty_requestrecord ({', '.join(COPY_COLUMNS)}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for start in range(0, len(records), batch):
            lines = []
            for r in records[start:start + batch]:
                values = (r["endpoint_id"], run_id, file_id, r["started_at"], r["region"], r["ttft_s"], r["e2e_s"],
                          r["output_tokens"], r["token_count"], r["tokens_per_second"], r["outcome"],
                          r["http_status"], r["error"])
                lines.append("\t".join(map(_copy_value, values)))
            copy.write("\n".join(lines) + "\n")


def insert_records(records, run_id, file_id=None):
    if connection.vendor == "postgresql":
        _copy(records, run_id, file_id)
    else:
        RequestRecord.objects.bulk_create(
            (RequestRecord(run_id=run_id, file_id=file_id, **r) for r in records), batch_size=2000
        )


def import_records(run, raw, name):
    """Check every row, then store the file and all its records, or nothing. Returns the ImportedFile."""
    text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
    if run.snapshot_id:
        raise RecordImportError([_("Run “%(run)s” is already aggregated; import into a new run.") % {"run": run}])
    checksum = hashlib.sha256(text.encode()).hexdigest()
    if run.files.filter(checksum=checksum).exists():
        raise RecordImportError([_("%(name)s was already imported into this run (same checksum).") % {"name": name}])
    records = parse(text, name)
    with transaction.atomic():
        run = Run.objects.select_for_update().get(pk=run.pk)
        imported = ImportedFile.objects.create(run=run, name=name[:255], content=text, rows=len(records))
        insert_records(records, run.pk, imported.pk)
        run.endpoints.add(*{r["endpoint_id"] for r in records})
        if run.status == Run.Status.DRAFT:
            run.status = Run.Status.FINISHED
            run.save(update_fields=["status"])
    return imported
