"""What every upstream adapter shares: the failures a run can end in, the rows an adapter hands to the
refresh, and an HTTP client with timeouts, retries, Retry-After and conditional requests."""

import email.utils
import json
import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from urllib.parse import urlsplit

import httpx
from django.conf import settings

log = logging.getLogger(__name__)


# --- failures ---------------------------------------------------------------------------------
class RefreshError(Exception):
    """A run cannot go on; the message is what editors read in the run list."""

    kind = "error"


class UpstreamUnavailable(RefreshError):
    kind = "http"

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status  # the HTTP status that ended the request, when there was one


class MalformedPayload(RefreshError):
    kind = "malformed"


class SchemaChanged(RefreshError):
    kind = "schema"


class ImpossibleValue(RefreshError):
    kind = "value"


class ConfigurationError(RefreshError):
    kind = "configuration"


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
    notes: list = field(default_factory=list)


# --- HTTP -------------------------------------------------------------------------------------
def describe(url):
    """Host and path only: query strings can carry parameters nobody needs in a run log."""
    parts = urlsplit(str(url))
    return f"{parts.netloc}{parts.path}"


def retry_after_seconds(value, now=None):
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (moment - (now or datetime.now(UTC))).total_seconds())


@dataclass
class FetchedDocument:
    url: str
    status: int
    text: str
    etag: str = ""
    last_modified: str = ""

    @property
    def not_modified(self):
        return self.status == 304

    def validators(self):
        found = {}
        if self.etag:
            found["etag"] = self.etag
        if self.last_modified:
            found["last_modified"] = self.last_modified
        return found


class UpstreamClient:
    """GET with a timeout on every call, retries with exponential backoff on timeouts, dropped
    connections and 5xx, Retry-After honoured on 429 (up to a cap), and If-None-Match /
    If-Modified-Since when the caller has validators from a previous good run."""

    def __init__(
        self, headers=None, timeout=None, attempts=None, backoff=None, max_retry_after=None, sleep=time.sleep
    ):
        self.timeout = float(timeout if timeout is not None else settings.REFRESH_HTTP_TIMEOUT)
        self.attempts = max(1, int(attempts if attempts is not None else settings.REFRESH_HTTP_ATTEMPTS))
        self.backoff = float(backoff if backoff is not None else settings.REFRESH_HTTP_BACKOFF)
        self.max_retry_after = float(
            max_retry_after if max_retry_after is not None else settings.REFRESH_MAX_RETRY_AFTER
        )
        self.sleep = sleep
        self.waits = []  # seconds slept between attempts, for the run notes and tests
        self._client = httpx.Client(
            headers={
                "Accept": "application/json",
                "User-Agent": "llm-benchmarks-cms refresh",
                **(headers or {}),
            },
            timeout=httpx.Timeout(self.timeout),
            follow_redirects=True,
        )

    def close(self):
        self._client.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def get(self, url, params=None, validators=None, refused=None):
        """Return a FetchedDocument (status 200 or 304) or raise UpstreamUnavailable.

        `refused` maps 4xx status codes to the explanation editors should read (e.g. 403 → the key
        lacks the paid tier); other 4xx are reported with their code.
        """
        conditional = {}
        if validators:
            if validators.get("etag"):
                conditional["If-None-Match"] = validators["etag"]
            if validators.get("last_modified"):
                conditional["If-Modified-Since"] = validators["last_modified"]
        where = describe(url)
        problem = ""
        for attempt in range(1, self.attempts + 1):
            wait = None
            try:
                response = self._client.get(url, params=params, headers=conditional)
            except httpx.TimeoutException:
                problem = f"no answer within {self.timeout:g} s (timeout)"
            except httpx.RemoteProtocolError:
                problem = "the connection closed before the whole response arrived (truncated body)"
            except httpx.TransportError as exc:
                problem = f"could not connect ({exc.__class__.__name__})"
            else:
                status = response.status_code
                if status in (200, 304):
                    return FetchedDocument(
                        url=str(response.url),
                        status=status,
                        text=response.text if status == 200 else "",
                        etag=response.headers.get("ETag", ""),
                        last_modified=response.headers.get("Last-Modified", ""),
                    )
                if status == 429:
                    asked = retry_after_seconds(response.headers.get("Retry-After"))
                    if asked is not None and asked > self.max_retry_after:
                        raise UpstreamUnavailable(
                            f"{where}: rate limited (HTTP 429); the upstream asks to wait {asked:g} s, "
                            f"more than the {self.max_retry_after:g} s a run waits",
                            status=429,
                        )
                    problem = "rate limited (HTTP 429)"
                    wait = asked
                elif status >= 500:
                    problem = f"HTTP {status} (server error)"
                elif 200 < status < 300:
                    raise UpstreamUnavailable(f"{where}: unexpected HTTP {status} without a usable body")
                else:
                    explanation = (refused or {}).get(status) or {
                        401: "the API key is missing or was refused",
                        403: "access denied",
                        404: "not found: check the source's upstream parameters",
                    }.get(status, "request refused")
                    raise UpstreamUnavailable(f"{where}: HTTP {status}, {explanation}", status=status)
            if attempt == self.attempts:
                break
            if wait is None:
                wait = self.backoff * (2 ** (attempt - 1))
            log.info(
                "refresh: %s: %s; retrying in %.2f s (attempt %s of %s)",
                where,
                problem,
                wait,
                attempt + 1,
                self.attempts,
            )
            self.waits.append(wait)
            self.sleep(wait)
        raise UpstreamUnavailable(f"{where}: {problem}; gave up after {self.attempts} attempts")


def parse_json(document, label):
    """Decode a body; a truncated or garbled one becomes a MalformedPayload naming where it broke."""
    if not document.text.strip():
        raise MalformedPayload(f"{label}: the upstream sent an empty body")
    try:
        return json.loads(document.text, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        truncated = exc.pos >= len(document.text.rstrip()) - 1
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

    def __init__(self, params, validators=None, progress=None, client_factory=UpstreamClient):
        self.params = params or {}
        self.validators = validators or {}
        self.progress = progress or (lambda message: None)
        self.client_factory = client_factory

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
