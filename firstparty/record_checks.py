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
    """Checks rows one at a time. A million rows pass through `check` per large file, so the usual case
    (strings and numbers of the right types) takes the shortest path; anything else goes through the
    general conversions, with the same messages."""

    def __init__(self):
        self.endpoints = {
            (e.provider.slug, e.model.slug, e.tier): e.pk for e in Endpoint.objects.select_related("provider", "model")
        }
        self._token_counts = {"": "", None: ""}  # checked token_count texts

    def check(self, row):
        """A dict of record fields, or raise ValueError("column: message")."""
        if not ALLOWED.issuperset(row):
            unknown = sorted(set(row) - ALLOWED)
            raise ValueError(_("unknown column(s) %(columns)s") % {"columns": ", ".join(unknown)})
        get = row.get
        provider, model, started, outcome = get("provider"), get("model"), get("started_at"), get("outcome")
        if not (provider and model and started and outcome):
            for column in REQUIRED:
                if row.get(column) in (None, ""):
                    raise ValueError(_("column %(column)s: required") % {"column": column})
        try:
            endpoint_id = self.endpoints.get((provider, model, get("tier") or ""))
        except TypeError:  # a list or an object where a slug belongs
            endpoint_id = None
        if endpoint_id is None:
            key = (str(provider), str(model), str(get("tier") or ""))
            endpoint_id = self.endpoints.get(key)
            if endpoint_id is None:
                raise ValueError(_("columns provider/model/tier: no endpoint %(key)s") % {"key": "/".join(k for k in key if k)})
        try:
            started = datetime.fromisoformat(started if started.__class__ is str else str(started))
        except ValueError:
            raise ValueError(_("column started_at: not an ISO 8601 time")) from None
        if started.tzinfo is None:
            raise ValueError(_("column started_at: give a time zone (e.g. 2026-09-03T09:00:00Z)"))
        if outcome.__class__ is not str or outcome not in OUTCOMES:
            outcome = str(outcome)
            if outcome not in OUTCOMES:
                raise ValueError(_("column outcome: %(value)r is not one of %(choices)s")
                                 % {"value": outcome, "choices": ", ".join(sorted(OUTCOMES))})
        ttft, e2e, tokens, status = get("ttft_s"), get("e2e_s"), get("output_tokens"), get("http_status")
        ttft = None if ttft is None or ttft == "" else self._seconds(ttft, "ttft_s")
        e2e = None if e2e is None or e2e == "" else self._seconds(e2e, "e2e_s")
        tokens = None if tokens is None or tokens == "" else self._tokens(tokens)
        status = None if status is None or status == "" else self._status(status)
        token_count = get("token_count")
        if token_count.__class__ is str or token_count is None:
            checked_count = self._token_counts.get(token_count)
            if checked_count is None:
                checked_count = self._token_counts[token_count] = self._token_count(token_count)
        else:
            checked_count = self._token_count(token_count)
        region, error = get("region"), get("error")
        fields = {"endpoint_id": endpoint_id, "started_at": started, "outcome": outcome,
                  "region": str(region)[:50] if region else "", "error": str(error)[:300] if error else "",
                  "token_count": checked_count, "ttft_s": ttft, "e2e_s": e2e, "output_tokens": tokens,
                  "http_status": status, "tokens_per_second": None}
        if outcome in COMPLETED:
            for column in ("ttft_s", "e2e_s", "output_tokens", "token_count"):
                if fields[column] in (None, ""):
                    raise ValueError(_("column %(column)s: required for a completed request") % {"column": column})
            if e2e < ttft:
                raise ValueError(_("column e2e_s: ends before the first token (ttft_s)"))
            if tokens >= 2 and e2e > ttft:  # models.tokens_per_second, inline: the same definition
                fields["tokens_per_second"] = (tokens - 1) / (e2e - ttft)
        else:
            if outcome == "http_error" and status is None:
                raise ValueError(_("column http_status: required for an HTTP error"))
            fields["tokens_per_second"] = tokens_per_second(tokens, ttft, e2e)
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
        number = value if value.__class__ is float else _number(value, column)
        if not 0 <= number <= MAX_SECONDS:  # False for NaN too
            if number != number or number in (math.inf, -math.inf):
                raise ValueError(_("column %(column)s: must be finite") % {"column": column})
            raise ValueError(_("column %(column)s: %(value)s s is outside 0–3600 s") % {"column": column, "value": value})
        return number

    @staticmethod
    def _tokens(value):
        number = value if value.__class__ is int else _number(value, "output_tokens", integer=True)
        if not 0 <= number <= MAX_TOKENS:
            raise ValueError(_("column output_tokens: %(value)s is not a plausible token count") % {"value": value})
        return number

    @staticmethod
    def _status(value):
        number = value if value.__class__ is int else _number(value, "http_status", integer=True)
        if not 100 <= number <= 599:
            raise ValueError(_("column http_status: %(value)s is not an HTTP status") % {"value": value})
        return number
