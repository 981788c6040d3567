"""One streamed chat completion against an OpenAI-compatible endpoint, timed on the client clock.

Nothing here touches the database: the caller stores the result afterwards, so no transaction is open
while a response streams (a slow provider must not hold a connection's locks for 20 seconds).
The API key arrives as an argument; it goes into the Authorization header and nowhere else (not into
errors, logs or results).
"""

import json
import time
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime

import httpx
from django.utils import timezone

from .http_client import pooled_client
from .models import RequestRecord, tokens_per_second

Outcome = RequestRecord.Outcome


@dataclass
class ProbeResult:
    started_at: datetime
    outcome: str
    ttft_s: float | None = None
    e2e_s: float | None = None
    output_tokens: int | None = None
    token_count: str = ""
    http_status: int | None = None
    error: str = ""
    text: str = field(default="", repr=False)
    connect_s: float | None = None

    @property
    def tokens_per_second(self):
        return tokens_per_second(self.output_tokens, self.ttft_s, self.e2e_s)

    def record_fields(self):
        return {
            "started_at": self.started_at, "outcome": self.outcome, "ttft_s": self.ttft_s, "e2e_s": self.e2e_s,
            "output_tokens": self.output_tokens, "token_count": self.token_count, "http_status": self.http_status,
            "error": self.error[:300], "tokens_per_second": self.tokens_per_second, "connect_s": self.connect_s,
        }


def request_body(params):
    body = {
        "model": params["model"],
        "messages": params["messages"],
        "max_tokens": params["max_tokens"],
        "temperature": params["temperature"],
        "top_p": params["top_p"],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if params.get("json_mode"):
        body["response_format"] = {"type": "json_object"}
    if params.get("reasoning_effort"):
        body["reasoning_effort"] = params["reasoning_effort"]
    return body


def grade(text, expected):
    """(outcome, error) for a complete answer under the task rubric: a JSON object, equal to `expected` if given."""
    try:
        answer = json.loads(text)
    except ValueError:
        return Outcome.WRONG_ANSWER, "answer is not valid JSON"
    if not isinstance(answer, dict):
        return Outcome.WRONG_ANSWER, "answer is not a JSON object"
    if expected is not None and answer != expected:
        return Outcome.WRONG_ANSWER, "answer differs from the expected object"
    return Outcome.SUCCESS, ""


class _Stream:
    """State of one streamed response: first content token, text, token count, [DONE] seen."""

    def __init__(self, sent, deadline, clock):
        self.sent, self.deadline, self.clock = sent, deadline, clock
        self.first = None
        self.parts, self.chunks, self.usage_tokens, self.done = [], 0, None, False

    def feed(self, line):
        """Handle one SSE line; returns an error text for a malformed stream."""
        if not line or line.startswith(":") or line.startswith(("event:", "id:", "retry:")):
            return None
        if not line.startswith("data:"):
            return f"unexpected line in the event stream: {line[:60]!r}"
        data = line[5:].strip()
        if data == "[DONE]":
            self.done = True
            return None
        try:
            chunk = json.loads(data)
        except ValueError:
            return f"chunk {self.chunks + 1} is not JSON"
        if not isinstance(chunk, dict):
            return f"chunk {self.chunks + 1} is not a JSON object"
        if chunk.get("error"):
            message = chunk["error"].get("message", "") if isinstance(chunk["error"], dict) else chunk["error"]
            return f"error event in the stream: {str(message)[:120]}"
        usage = chunk.get("usage")
        if isinstance(usage, dict) and isinstance(usage.get("completion_tokens"), int):
            self.usage_tokens = usage["completion_tokens"]
        for choice in chunk.get("choices") or []:
            content = ((choice or {}).get("delta") or {}).get("content")
            if isinstance(content, str) and content:
                if self.first is None:
                    self.first = self.clock()
                self.parts.append(content)
                self.chunks += 1
        return None


class _Timer:
    """Moments of one request on the probe's clock, from httpcore's `trace` extension.

    `sent`: the request headers start to leave (after any connection set-up); `connect_s`: DNS, TCP
    and TLS of a connection opened for this request (None when the pool had one open). A transport
    that reports no trace events (a test's MockTransport) leaves `sent` at the moment before
    `client.send`.
    """

    def __init__(self, clock):
        self.clock = clock
        self.sent = clock()
        self.connect_started = self.connect_ended = None

    def trace(self, event, info):
        now = self.clock()
        if event.endswith(".send_request_headers.started"):
            self.sent = now  # a retried request keeps the attempt that was answered
        elif event.endswith(".connect_tcp.started"):
            self.connect_started = self.connect_started or now
        elif event.endswith((".connect_tcp.complete", ".start_tls.complete")):
            self.connect_ended = now

    @property
    def connect_s(self):
        if self.connect_started is None or self.connect_ended is None:
            return None
        return self.connect_ended - self.connect_started


def _drain(lines):
    """Read what follows [DONE] (the end of the chunked body) so the connection goes back to the pool
    for the next request; the measurement is already taken, so a failure here changes nothing."""
    try:
        for _rest in lines:
            pass
    except httpx.HTTPError:
        pass


def stream_completion(params, api_key, clock=time.perf_counter, transport=None, client=None):
    """Send one request and return a ProbeResult whatever happens (timeouts and errors included).

    The client (this process's pooled one unless given) exists before the clock starts: TTFT and
    end-to-end time run from the request leaving to the first content token and to the end of the
    stream; opening a connection, when one was needed, is measured apart (connect_s).
    """
    client = client or pooled_client(transport)
    started_at = timezone.now()
    timeout = float(params["timeout_seconds"])
    url = params["base_url"].rstrip("/") + "/chat/completions"
    headers = {"Authorization": f"Bearer {api_key}", "Accept": "text/event-stream"}
    request = client.build_request("POST", url, json=request_body(params), headers=headers,
                                   timeout=httpx.Timeout(timeout))
    timer = _Timer(clock)
    request.extensions["trace"] = timer.trace
    state = _Stream(timer.sent, timer.sent + timeout, clock)

    def result(outcome, error="", status=None):
        ttft = state.first - timer.sent if state.first is not None else None
        finished = outcome in (Outcome.SUCCESS, Outcome.WRONG_ANSWER)
        tokens = state.usage_tokens if state.usage_tokens is not None else (state.chunks or None)
        return ProbeResult(
            started_at=started_at, outcome=outcome, ttft_s=ttft, e2e_s=(clock() - timer.sent) if finished else None,
            output_tokens=tokens, token_count="usage" if state.usage_tokens is not None else "chunks",
            http_status=status, error=error, text="".join(state.parts), connect_s=timer.connect_s,
        )

    try:
        with closing(client.send(request, stream=True)) as response:
            if response.status_code >= 400:
                return result(Outcome.HTTP_ERROR, f"HTTP {response.status_code} {response.reason_phrase}",
                              response.status_code)
            lines = response.iter_lines()
            for line in lines:
                problem = state.feed(line)
                if problem:
                    return result(Outcome.MALFORMED, problem, response.status_code)
                if clock() > state.deadline:
                    return result(Outcome.TIMEOUT, f"no complete answer within {timeout:g} s")
                if state.done:
                    break
            ended = clock()
            if state.done:
                _drain(lines)
    except httpx.TimeoutException:
        return result(Outcome.TIMEOUT, f"no complete answer within {timeout:g} s")
    except (httpx.RemoteProtocolError, httpx.ReadError):
        return result(Outcome.MALFORMED, "the connection closed in the middle of the stream")
    except httpx.HTTPError as exc:
        return result(Outcome.HTTP_ERROR, f"request failed: {type(exc).__name__}")
    if not state.done:
        return result(Outcome.MALFORMED, "the stream ended without [DONE]")
    if state.first is None:
        return result(Outcome.MALFORMED, "the stream carried no content")
    outcome, error = grade("".join(state.parts), params.get("expected_answer"))
    probe = result(outcome, error)
    probe.e2e_s = ended - timer.sent
    return probe
