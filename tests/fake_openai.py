"""A fake OpenAI-compatible streaming provider on 127.0.0.1, in a thread of the test process.

Each test sets a Scenario: delay to the first token, seconds between tokens, HTTP status, a mid-stream
disconnect, a malformed chunk, a stall. Timing is exact: every chunk leaves at its scheduled moment
counted from the request's arrival (first content token at stall + first_token_delay, token i at
first_token_delay + i × token_interval), so sleeps that overshoot on a busy machine never add up. Chunks are the shapes saved in
tests/upstream_examples/openai_chat_completion_stream_chunks.json, sent with chunked transfer encoding
like a real server, so a disconnect is an incomplete body to the client.
"""

import copy
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

SHAPES = json.loads(
    (Path(__file__).parent / "upstream_examples" / "openai_chat_completion_stream_chunks.json").read_text()
)


@dataclass
class Scenario:
    status: int = 200
    first_token_delay: float = 0.05
    token_interval: float = 0.01
    tokens: int = 20
    answer: dict = field(default_factory=lambda: {"items": ["budget", "room"]})
    disconnect_after: int | None = None  # close the socket after this many content chunks
    malformed_at: int | None = None  # send a broken chunk instead of this content chunk
    send_usage: bool = True
    send_done: bool = True
    stall: float = 0.0  # sleep this long after the headers, before any chunk


def split_answer(answer, pieces):
    text = json.dumps(answer)
    while len(text) < pieces:  # pad inside the JSON so the joined text stays the same object
        text = text[:-1] + " " * (pieces - len(text)) + text[-1]
    size, extra = divmod(len(text), pieces)
    parts, start = [], 0
    for i in range(pieces):
        end = start + size + (1 if i < extra else 0)
        parts.append(text[start:end])
        start = end
    return parts


def sleep_until(moment):
    remaining = moment - time.perf_counter()
    if remaining > 0:
        time.sleep(remaining)


class FakeProvider:
    def __init__(self):
        self.scenario = Scenario()
        self.requests = []  # (headers dict, body dict) of every request received
        self.peers = []  # the client's (host, port) of every request: one port per TCP connection
        self.on_request = None  # optional callback(handler) run when a request arrives
        provider = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def write_chunk(self, data):
                payload = data.encode()
                self.wfile.write(f"{len(payload):X}\r\n".encode() + payload + b"\r\n")
                self.wfile.flush()

            def event(self, obj):
                self.write_chunk("data: " + (obj if isinstance(obj, str) else json.dumps(obj)) + "\n\n")

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                arrived = time.perf_counter()
                provider.requests.append((dict(self.headers), body))
                provider.peers.append(self.client_address)
                if provider.on_request:
                    provider.on_request(self)
                s = provider.scenario
                if s.status >= 400:
                    payload = json.dumps({"error": {"message": "rate limited" if s.status == 429 else "server error"}})
                    self.send_response(s.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload.encode())
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                sleep_until(arrived + s.stall)
                self.event(SHAPES["role_chunk"])
                first_token_at = arrived + s.stall + s.first_token_delay
                for i, piece in enumerate(split_answer(s.answer, s.tokens)):
                    sleep_until(first_token_at + i * s.token_interval)
                    if s.disconnect_after is not None and i == s.disconnect_after:
                        self.connection.shutdown(socket.SHUT_RDWR)
                        self.close_connection = True
                        return
                    if s.malformed_at is not None and i == s.malformed_at:
                        self.event('{"id": "chatcmpl-broken", "choices": [{"delta": {"content": ')
                        continue
                    chunk = copy.deepcopy(SHAPES["content_chunk"])
                    chunk["choices"][0]["delta"]["content"] = piece
                    self.event(chunk)
                self.event(SHAPES["stop_chunk"])
                if s.send_usage:
                    usage = copy.deepcopy(SHAPES["usage_chunk"])
                    usage["usage"]["completion_tokens"] = s.tokens
                    usage["usage"]["total_tokens"] = s.tokens + usage["usage"]["prompt_tokens"]
                    self.event(usage)
                if s.send_done:
                    self.event("[DONE]")
                self.write_chunk("")  # zero-length chunk: the body is complete

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
