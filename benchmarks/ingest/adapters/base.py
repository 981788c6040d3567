"""What every upstream adapter shares: the rows an adapter hands to the refresh and the adapter base
class. The failures a run can end in are in errors.py, the HTTP client in http_client.py."""

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from .errors import MalformedPayload
from .http_client import UpstreamClient
from .replay import ReplayClient


# --- what adapters return ---------------------------------------------------------------------
@dataclass
class UpstreamRow:
    """One upstream row: figures for one endpoint (or one model) in our units, None = not measured."""

    upstream_id: str
    name: str
    where: str  # position in the payload, for error messages: "page 2, data[3]"
    metrics: dict = field(default_factory=dict)  # metric key -> Decimal | None
    input_per_m: Decimal | None = None
    output_per_m: Decimal | None = None
    currency: str = "USD"
    # Other upstream identifiers that name the same thing (LiteLLM keys); a mapping on any of them places the row.
    aliases: tuple = ()
    # The provider and the model the row names, in the upstream's words: they sort and filter the
    # unmapped-rows list for editors; they never place a row (only a mapping does).
    provider_hint: str = ""
    model_hint: str = ""

    @property
    def has_price(self):
        return self.input_per_m is not None or self.output_per_m is not None

    def canonical(self):
        """A stable, JSON-ready form used for checksums and the unmapped-rows list."""
        return {
            "id": self.upstream_id,
            "name": self.name,
            "metrics": {key: _text(value) for key, value in sorted(self.metrics.items())},
            "price": [_text(self.input_per_m), _text(self.output_per_m), self.currency]
            if self.has_price
            else None,
        }


def _text(value):
    return None if value is None else format(value.normalize(), "f")


@dataclass
class FetchResult:
    raw_payload: str = ""
    rows: list = field(default_factory=list)
    measured_at: datetime | None = None
    validators: dict = field(default_factory=dict)  # url -> {"etag": ..., "last_modified": ...}
    not_modified: bool = False
    out_of_scope: int = 0  # rows the source's parameters leave out (counted, never silently lost)
    skipped: Counter = field(default_factory=Counter)  # reason -> rows read but not usable (counted)
    notes: list = field(default_factory=list)
    pages: int = 0  # documents read
    list_pages: dict = field(default_factory=dict)  # paged list -> pages it announced (budget planning)

    def skip(self, reason, count=1):
        self.skipped[reason] += count

    def skipped_notes(self):
        return [f"{count} rows skipped: {reason}." for reason, count in sorted(self.skipped.items())]


def parse_json(document, label):
    """Decode a body; a truncated or garbled one becomes a MalformedPayload naming where it broke."""
    if not document.text.strip():
        raise MalformedPayload(f"{label}: the upstream sent an empty body")
    try:
        return json.loads(document.text, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        # A string that never closes runs to the end of the body: also a body cut short.
        truncated = exc.pos >= len(document.text.rstrip()) - 1 or exc.msg.startswith("Unterminated string")
        hint = " (the body ends early: truncated)" if truncated else ""
        raise MalformedPayload(
            f"{label}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}{hint}"
        ) from None


def join_pages(documents):
    """The raw payload kept on a snapshot: one body verbatim, or several pages wrapped without re-encoding."""
    if len(documents) == 1:
        return documents[0].text
    return '{"pages": [' + ",\n".join(doc.text for doc in documents) + "]}"


class BaseAdapter:
    name = ""
    upstream = ""
    # Adapters that fetch one document can skip the whole run on 304 Not Modified.
    conditional = False
    # The environment variable of the API key whose request budget this adapter spends ("": none);
    # sources whose adapters share a key share one budget (ingest/budget.py).
    budget_key = ""

    def __init__(
        self,
        params,
        validators=None,
        progress=None,
        client_factory=None,
        deadline=None,
        rate_limit=None,
        last_pages=None,
        replay=None,
    ):
        self.params = params or {}
        # Saved answers (replay.SavedPayloads) instead of the upstream: no request is sent, no key needed.
        self.replay = replay
        self.validators = validators or {}
        self.last_pages = last_pages or {}  # paged list -> pages it had at the last run
        self.result = None  # what fetch() has read so far, kept when it fails half way
        self.progress = progress or (lambda message: None)
        self.client_factory = client_factory or UpstreamClient
        if replay is not None:
            self.client_factory = lambda **options: ReplayClient(replay, progress=self.progress, **options)
        self.deadline = deadline
        self.initial_rate_limit = rate_limit  # the budget the last run saw
        self.clients = []

    def new_result(self, **values):
        self.result = FetchResult(**values)
        return self.result

    def open_client(self, **kwargs):
        """A client bound to this run's deadline and request budget (kept to read what it learned)."""
        rate_limit = self.rate_limit
        client = self.client_factory(deadline=self.deadline, rate_limit=rate_limit, **kwargs)
        self.clients.append(client)
        return client

    @property
    def rate_limit(self):
        """The newest request budget any of this run's answers announced."""
        for client in reversed(self.clients):
            if client.rate_limit is not None:
                return client.rate_limit
        return self.initial_rate_limit

    @property
    def client_notes(self):
        notes = []
        for client in self.clients:
            notes += [note for note in client.notes if note not in notes]
        return notes

    def finish(self, result):
        """Notes every adapter adds: waits, skipped rows, credentials withheld on a redirect."""
        waits = sum(sum(client.waits) for client in self.clients)
        if waits:
            result.notes.append(f"Waited {waits:.1f} s for the upstream (retries / Retry-After).")
        result.notes += self.client_notes + result.skipped_notes()
        return result

    @classmethod
    def check_params(cls, params):
        """An error message for parameters this adapter cannot use, or None."""
        return None

    def fetch(self):
        raise NotImplementedError

    def get_all(self, client, urls):
        """GET each URL; (documents, True) when every one answered 304 Not Modified.

        Validators are only sent by adapters that declare `conditional`; when some URLs changed
        and others did not, the unchanged ones are fetched again in full, because the snapshot
        keeps every body verbatim.
        """
        documents = []
        for url in urls:
            validators = self.validators.get(url) if self.conditional else None
            documents.append(client.get(url, validators=validators))
        if documents and all(document.not_modified for document in documents):
            return documents, True
        return [
            client.get(url) if doc.not_modified else doc for url, doc in zip(urls, documents, strict=True)
        ], False
