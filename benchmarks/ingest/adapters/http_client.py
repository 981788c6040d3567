"""The one way refreshes talk to upstreams: GET with a timeout on every read, a deadline for the whole
run, a size cap enforced while the body streams in, retries with backoff, Retry-After, conditional
requests, the upstream's request budget (x-ratelimit-* headers), and credentials that never follow a
redirect to another origin."""

import email.utils
import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

import httpx
from django.conf import settings

from .errors import DeadlineExceeded, PayloadTooLarge, RateLimitBudgetSpent, UpstreamUnavailable, describe

log = logging.getLogger(__name__)

MAX_REDIRECTS = 5
MEGABYTE = 1024 * 1024


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


def size_text(size):
    return f"{size:,} bytes" + (f" ({size / MEGABYTE:g} MB)" if size >= MEGABYTE else "")


def origin(url):
    url = httpx.URL(str(url))
    return (url.scheme, url.host, url.port or {"http": 80, "https": 443}.get(url.scheme))


class Deadline:
    """The time one run may spend talking to upstreams, all requests and waits together.

    httpx timeouts bound each read, not the whole body: a server sending one byte a second never
    trips them. The deadline is checked between chunks and caps every read timeout and every wait.
    """

    def __init__(self, seconds=None):
        self.seconds = float(seconds if seconds is not None else settings.REFRESH_RUN_DEADLINE)
        self.ends = time.monotonic() + self.seconds

    def remaining(self):
        return self.ends - time.monotonic()

    def check(self, where):
        if self.remaining() <= 0:
            raise DeadlineExceeded(
                f"{where}: stopped after {self.seconds:g} s, the time one run may take "
                "(REFRESH_RUN_DEADLINE); the upstream is too slow or sends its answer drop by drop"
            )


@dataclass
class RateLimit:
    """The request budget an upstream announces in x-ratelimit-limit / -remaining / -reset."""

    limit: int | None = None
    remaining: int | None = None
    reset: datetime | None = None  # when the window starts again
    seen_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    @classmethod
    def from_headers(cls, headers):
        def integer(name):
            try:
                return int(float(headers.get(name, "").strip()))
            except ValueError:
                return None

        limit, remaining, reset = (
            integer("x-ratelimit-limit"),
            integer("x-ratelimit-remaining"),
            integer("x-ratelimit-reset"),
        )
        if limit is None and remaining is None:
            return None
        moment = None
        if reset is not None:
            # The documented form is a unix time; small values are read as seconds from now.
            moment = datetime.fromtimestamp(reset if reset > 10**9 else time.time() + reset, tz=UTC)
        return cls(limit=limit, remaining=remaining, reset=moment)

    @classmethod
    def from_json(cls, data):
        if not data or data.get("remaining") is None:
            return None
        reset = datetime.fromisoformat(data["reset"]) if data.get("reset") else None
        if reset is not None and reset <= datetime.now(UTC):
            return None  # that window is over: the budget is whole again
        return cls(
            limit=data.get("limit"),
            remaining=data["remaining"],
            reset=reset,
            seen_at=datetime.fromisoformat(data["seen_at"]) if data.get("seen_at") else datetime.now(UTC),
        )

    def as_json(self):
        return {
            "limit": self.limit,
            "remaining": self.remaining,
            "reset": self.reset.isoformat() if self.reset else None,
            "seen_at": self.seen_at.isoformat(),
        }

    def describe(self):
        left = f"{self.remaining} of {self.limit}" if self.limit is not None else f"{self.remaining}"
        when = f", the budget resets at {self.reset:%Y-%m-%d %H:%M} UTC" if self.reset else ""
        return f"{left} requests left{when}"


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
    """GET with retries (timeouts, dropped connections, 5xx; Retry-After on 429 up to a cap) and
    If-None-Match / If-Modified-Since when the caller has validators from a previous good run.

    `credentials` are headers (API keys) sent only to the origin of the URL asked for: a redirect to
    another origin is followed without them. `rate_limit` is the budget the previous run saw; a
    request that would spend the last `reserve` requests is not sent.
    """

    def __init__(
        self,
        headers=None,
        credentials=None,
        timeout=None,
        attempts=None,
        backoff=None,
        max_retry_after=None,
        max_body_bytes=None,
        deadline=None,
        rate_limit=None,
        reserve=None,
        sleep=time.sleep,
    ):
        self.timeout = float(timeout if timeout is not None else settings.REFRESH_HTTP_TIMEOUT)
        self.attempts = max(1, int(attempts if attempts is not None else settings.REFRESH_HTTP_ATTEMPTS))
        self.backoff = float(backoff if backoff is not None else settings.REFRESH_HTTP_BACKOFF)
        self.max_retry_after = float(
            max_retry_after if max_retry_after is not None else settings.REFRESH_MAX_RETRY_AFTER
        )
        self.max_body_bytes = int(
            max_body_bytes if max_body_bytes is not None else settings.REFRESH_MAX_BODY_BYTES
        )
        self.deadline = deadline or Deadline()
        self.rate_limit = rate_limit
        self.reserve = int(reserve if reserve is not None else settings.REFRESH_RATE_LIMIT_RESERVE)
        self.credentials = dict(credentials or {})
        self.sleep = sleep
        self.waits = []  # seconds slept between attempts, for the run notes and tests
        self.notes = []  # what the run should tell editors (credentials withheld on a redirect)
        self.requests_sent = 0
        self._client = httpx.Client(
            headers={
                "Accept": "application/json",
                "User-Agent": "llm-benchmarks-cms refresh",
                **(headers or {}),
            },
            timeout=httpx.Timeout(self.timeout),
            follow_redirects=False,  # followed by hand, so credentials stay with their origin
        )

    def close(self):
        self._client.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- one request --------------------------------------------------------------------------
    def check_budget(self, where):
        budget = self.rate_limit
        if budget is None or budget.remaining is None:
            return
        if budget.reset is not None and budget.reset <= datetime.now(UTC):
            return
        if budget.remaining <= self.reserve:
            raise RateLimitBudgetSpent(
                f"{where}: not sent, the upstream's request budget is nearly spent ({budget.describe()}); "
                f"runs keep the last {self.reserve} requests in reserve and the next attempt waits for the reset",
                rate_limit=budget,
            )

    def spendable(self):
        """Requests this run may still send before the reserve; None when the upstream states no budget."""
        budget = self.rate_limit
        if budget is None or budget.remaining is None:
            return None
        if budget.reset is not None and budget.reset <= datetime.now(UTC):
            return None
        return max(0, budget.remaining - self.reserve)

    def ensure_budget(self, requests, where, why):
        """Refuse to start what the budget cannot finish: a paged list stopped half way spent its
        requests for nothing (issue 26: 3 of the last requests on a list that announced 5 pages)."""
        left = self.spendable()
        if left is None or left == 0 or requests <= left:
            return  # no budget stated, enough of it, or none at all (the next request says "nearly spent")
        raise RateLimitBudgetSpent(
            f"{where}: {why}, so {requests} more requests are needed, but only {left} can be spent before the "
            f"reserve of {self.reserve} ({self.rate_limit.describe()}); none was sent and the next attempt "
            "waits for the reset",
            rate_limit=self.rate_limit,
        )

    def send(self, url, params, headers, where):
        """One GET, redirects followed by hand; returns (response, body bytes or b"")."""
        first_origin = origin(url)
        request_url = httpx.URL(str(url), params=params) if params else httpx.URL(str(url))
        for _hop in range(MAX_REDIRECTS + 1):
            self.deadline.check(where)
            self.check_budget(where)
            same_origin = origin(request_url) == first_origin
            sent_headers = {**headers, **(self.credentials if same_origin else {})}
            timeout = max(0.05, min(self.timeout, self.deadline.remaining()))
            request = self._client.build_request(
                "GET", request_url, headers=sent_headers, timeout=httpx.Timeout(timeout)
            )
            self.requests_sent += 1
            response = self._client.send(request, stream=True)
            try:
                budget = RateLimit.from_headers(response.headers)
                if budget is not None:
                    self.rate_limit = budget
                if response.is_redirect and "location" in response.headers:
                    next_url = response.url.join(response.headers["location"])
                    if origin(next_url) != first_origin and self.credentials:
                        note = (
                            f"{where}: redirected to {describe(next_url)}, another origin; "
                            "followed without the API key"
                        )
                        if note not in self.notes:
                            self.notes.append(note)
                        log.warning("refresh: %s", note)
                    request_url = next_url
                    continue
                body = self.read_body(response, where) if response.status_code == 200 else b""
                return response, body
            finally:
                response.close()
        raise UpstreamUnavailable(f"{where}: more than {MAX_REDIRECTS} redirects")

    def read_body(self, response, where):
        """The body, refused as soon as it passes the size cap or the run's deadline."""
        cap = self.max_body_bytes
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > cap:
            raise PayloadTooLarge(
                f"{where}: the upstream announces {int(declared):,} bytes, more than the {size_text(cap)} "
                "a refresh reads (REFRESH_MAX_BODY_BYTES); nothing was read"
            )
        chunks, size = [], 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > cap:
                raise PayloadTooLarge(
                    f"{where}: the body passed {size_text(cap)}, the most a refresh reads "
                    "(REFRESH_MAX_BODY_BYTES); stopped reading"
                )
            chunks.append(chunk)
            self.deadline.check(where)
        return b"".join(chunks)

    # --- with retries -------------------------------------------------------------------------
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
                response, body = self.send(url, params, conditional, where)
            except httpx.TimeoutException:
                problem = f"no answer within {self.timeout:g} s (timeout)"
                self.deadline.check(where)
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
                        text=body.decode(response.charset_encoding or "utf-8", errors="replace"),
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
                elif 200 < status < 300 or 300 <= status < 400:
                    raise UpstreamUnavailable(
                        f"{where}: unexpected HTTP {status} without a usable body", status=status
                    )
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
            if wait >= self.deadline.remaining():
                raise DeadlineExceeded(
                    f"{where}: {problem}; waiting {wait:g} s more would pass the run's "
                    f"{self.deadline.seconds:g} s deadline (REFRESH_RUN_DEADLINE)"
                )
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
