"""What every reader of a runner's file shares: the row it yields, a record left out on purpose, the
options a file without our columns needs, and time and unit conversions."""

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from django.utils.translation import gettext as _

# A runner's single JSON document is read whole (its format has no line structure to stream); JSONL and
# CSV files stream whatever their size. Runners' JSON reports hold one benchmark each, a few MB.
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024


class FormatError(ValueError):
    """The file as a whole cannot be read in this format (the message says why and what to do)."""


@dataclass(frozen=True)
class Skipped:
    """A request in the file that is not imported, with the reason (counted per reason)."""

    reason: str
    count: int = 1


@dataclass(frozen=True)
class ReadOptions:
    """What a runner's file does not say and the importer must be told.

    endpoint: (provider slug, model slug, tier) for formats whose rows name no endpoint;
    started_at: an aware datetime for formats without per-request times;
    token_count: overrides the format's own statement of how tokens were counted;
    benchmark: which benchmark of a report holding several (0-based)."""

    endpoint: tuple | None = None
    started_at: datetime | None = None
    token_count: str = ""
    benchmark: int | None = None

    def endpoint_columns(self, runner):
        if self.endpoint is None:
            raise FormatError(_("A %(runner)s file names no endpoint of ours: give the endpoint "
                                "(provider/model[/tier]).") % {"runner": runner})
        provider, model, tier = self.endpoint
        return {"provider": provider, "model": model, "tier": tier}

    def start_time(self, runner):
        if self.started_at is None:
            raise FormatError(_("A %(runner)s file has no request times: give the benchmark's start "
                                "(ISO 8601 with a time zone); every record gets that time.") % {"runner": runner})
        return self.started_at.isoformat()


def epoch_seconds(value):
    return datetime.fromtimestamp(float(value), tz=UTC).isoformat()


def epoch_nanoseconds(value):
    seconds, nanos = divmod(int(value), 1_000_000_000)
    return datetime.fromtimestamp(seconds, tz=UTC).replace(microsecond=nanos // 1000).isoformat()


UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "sec": 1.0, "seconds": 1.0}


def seconds(value, unit):
    if unit not in UNITS:
        raise ValueError(_("unknown time unit %(unit)r") % {"unit": unit})
    return float(value) * UNITS[unit]


def load_document(stream, runner):
    """The file's single JSON document, read whole (up to MAX_DOCUMENT_BYTES)."""
    data = stream.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise FormatError(_("A %(runner)s report larger than %(mb)s MB is not read.")
                          % {"runner": runner, "mb": MAX_DOCUMENT_BYTES // 2**20})
    try:
        return json.loads(data.removeprefix(b"\xef\xbb\xbf"))
    except ValueError as exc:
        raise FormatError(_("not a JSON document: %(error)s") % {"error": exc}) from None


def choose(items, options, what, describe):
    """One benchmark of a report: the only one, or the one `options.benchmark` names."""
    if not items:
        raise FormatError(_("The report holds no %(what)s.") % {"what": what})
    if options.benchmark is None:
        if len(items) == 1:
            return items[0]
        listing = "; ".join(f"{n}: {describe(item)}" for n, item in enumerate(items))
        raise FormatError(_("The report holds %(count)s %(what)s measured under different loads; import one "
                            "at a time by its number (%(listing)s).") % {"count": len(items), "what": what,
                                                                        "listing": listing})
    if not 0 <= options.benchmark < len(items):
        raise FormatError(_("The report has no %(what)s number %(n)s (0 to %(last)s).")
                          % {"what": what, "n": options.benchmark, "last": len(items) - 1})
    return items[options.benchmark]

TOKEN_COUNT_HELP = ("How the file's token counts were made, if not the format's own statement: usage, chunks or "
                    "tokenizer:<name>.")
