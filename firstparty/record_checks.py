"""Checking one row of a runner's file (format in docs/first-party-runs.md): the columns it may have, the
values each takes, and the record fields it becomes."""

import math
import re
from datetime import datetime

from django.utils.translation import gettext as _

from benchmarks.models import Endpoint

from .models import RequestRecord, tokens_per_second

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
TOKEN_COUNTS = frozenset({"usage", "chunks"})
TOKENIZER = re.compile(r"tokenizer:[\w./+-]{1,50}")


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
