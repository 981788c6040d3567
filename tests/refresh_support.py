"""Shared by the refresh tests: a fake upstream HTTP server on 127.0.0.1 serving the saved examples
(or errors, delays, truncated bodies on demand), and the providers/models/endpoints of our articles."""

import datetime
import json
import threading
import time
from dataclasses import dataclass, field
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from django.db import connection
from django.utils import timezone

from benchmarks.models import (
    Endpoint,
    LanguageModel,
    Measurement,
    Price,
    Provider,
    RefreshConfig,
    Snapshot,
    Source,
    UpstreamMapping,
)

EXAMPLES = Path(__file__).resolve().parent / "upstream_examples"
AA_KEY = "aa-test-key-5f0d1c9e-do-not-log"

AA_FREE_PAGE_1 = "/api/v2/language/models/free?page=1"
AA_FREE_PAGE_2 = "/api/v2/language/models/free?page=2"
AA_GLM_PROVIDERS = "/api/v2/language/models/glm-5-3"  # Commercial tier: the model with its providers
OPENROUTER_GLM = "/api/v1/models/z-ai/glm-5.3/endpoints"
LITELLM = "/litellm/model_prices_and_context_window.json"

AA_GLM_ID = "0b6a9d3e-7f41-4c2a-9e55-3d1f8a2c5e01"
AA_DEEPSEEK_ID = "7c3e1f90-2b6d-4a8e-b1c4-9f0e2d7a6b02"
AA_FLASH_ID = "e4d20b7c-8a1f-4e39-a6c2-5b9d0f1e7c03"
AA_GPT_OSS_ID = "91a7c5e2-3d08-4b6f-8e41-0c2b9d5f7a04"


def example(name):
    return (EXAMPLES / name).read_text(encoding="utf-8")


def example_json(name):
    return json.loads(example(name))


@dataclass
class Reply:
    status: int = 200
    body: str = ""
    headers: dict = field(default_factory=dict)
    delay: float = 0.0  # seconds to sleep before answering (timeouts)
    truncate_at: int | None = None  # send only this many bytes of the body, then close
    barrier: threading.Barrier | None = None  # wait for other requests before answering (races)
    drip: float = 0.0  # seconds between bytes of the body (a server that answers drop by drop)
    chunked: bool = False  # no Content-Length: the size is only known while the body streams in


class FakeUpstream:
    """Routes "path" or "path?query" to a list of replies; each request takes the next one and the
    last one repeats. Every request is recorded with its headers."""

    def __init__(self):
        self.routes = {}
        self.requests = []
        self.bytes_sent = {}  # route -> body bytes written before the client went away
        self.lock = threading.Lock()
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                upstream.handle(self)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self):
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def set(self, route, *replies):
        with self.lock:
            self.routes[route] = [
                reply if isinstance(reply, Reply) else Reply(body=reply) for reply in replies
            ]

    def serve_examples(self):
        self.set(AA_FREE_PAGE_1, example("synthetic_aa_language_models_free_page1.json"))
        self.set(AA_FREE_PAGE_2, example("synthetic_aa_language_models_free_page2.json"))
        self.set(AA_GLM_PROVIDERS, example("synthetic_aa_language_model_glm-5-3_commercial.json"))
        self.set(OPENROUTER_GLM, example("synthetic_openrouter_z-ai_glm-5.3_endpoints.json"))
        self.set(LITELLM, example("synthetic_litellm_model_prices_and_context_window.json"))

    def hits(self, route):
        return [r for r in self.requests if r["route"] == route or r["path"] == route]

    def handle(self, handler):
        parts = urlsplit(handler.path)
        route = f"{parts.path}?{parts.query}" if parts.query else parts.path
        with self.lock:
            self.requests.append(
                {"route": route, "path": parts.path, "headers": dict(handler.headers), "at": time.monotonic()}
            )
            replies = self.routes.get(route) or self.routes.get(parts.path)
            reply = (
                (replies.pop(0) if len(replies) > 1 else replies[0])
                if replies
                else Reply(404, '{"error": "not found"}')
            )
        if reply.barrier is not None:
            try:
                reply.barrier.wait(timeout=10)
            except threading.BrokenBarrierError:
                pass
        if reply.delay:
            time.sleep(reply.delay)
        body = reply.body.encode() if isinstance(reply.body, str) else reply.body
        try:
            handler.send_response(reply.status)
            handler.send_header("Content-Type", "application/json")
            if reply.chunked:
                handler.send_header("Transfer-Encoding", "chunked")
            else:
                handler.send_header("Content-Length", str(len(body)))
            for name, value in reply.headers.items():
                handler.send_header(name, value)
            if reply.truncate_at is not None or reply.drip:
                handler.send_header("Connection", "close")
            handler.end_headers()
            if reply.status != 304:
                self.write_body(handler, route, reply, body)
            handler.wfile.flush()
            if reply.truncate_at is not None or reply.drip:
                handler.close_connection = True
        except (BrokenPipeError, ConnectionResetError):
            handler.close_connection = True  # the client gave up (a timeout, a cap, a deadline)

    def write_body(self, handler, route, reply, body):
        body = body if reply.truncate_at is None else body[: reply.truncate_at]
        if reply.drip:
            pieces = [body[i : i + 1] for i in range(len(body))]
        elif reply.chunked:
            pieces = [body[i : i + 65536] for i in range(0, len(body), 65536)]
        else:
            pieces = [body]
        for piece in pieces:
            if reply.chunked:
                handler.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            else:
                handler.wfile.write(piece)
            handler.wfile.flush()
            with self.lock:
                self.bytes_sent[route] = self.bytes_sent.get(route, 0) + len(piece)
            if reply.drip:
                time.sleep(reply.drip)
        if reply.chunked:
            handler.wfile.write(b"0\r\n\r\n")


@pytest.fixture(name="fake_upstream")
def fake_upstream_fixture(settings, monkeypatch):
    server = FakeUpstream().start()
    server.serve_examples()
    settings.ARTIFICIAL_ANALYSIS_BASE_URL = f"{server.url}/api/v2"
    settings.OPENROUTER_BASE_URL = f"{server.url}/api/v1"
    settings.LITELLM_PRICES_URL = f"{server.url}{LITELLM}"
    # Tiny limits keep failure cases fast; each test that needs more says so.
    settings.REFRESH_HTTP_TIMEOUT = 0.5
    settings.REFRESH_HTTP_ATTEMPTS = 2
    settings.REFRESH_HTTP_BACKOFF = 0.05
    settings.REFRESH_MAX_RETRY_AFTER = 5
    monkeypatch.setenv("ARTIFICIAL_ANALYSIS_API_KEY", AA_KEY)
    try:
        yield server
    finally:
        server.stop()


# --- our data -----------------------------------------------------------------------------------
PROVIDERS = [
    "Baseten",
    "Together AI",
    "Fireworks",
    "DeepInfra",
    "Novita AI",
    "Z.ai",
    "CoreWeave",
    "Cerebras",
    "Groq",
    "SambaNova",
    "DeepSeek",
]
MODELS = ["GLM-5.3", "DeepSeek V4.1 Flash 1017", "GLM-5.3-Flash", "GPT-OSS 120B"]


def slug(name):
    return name.lower().replace(" ", "-").replace(".", "-")


def build_world(auto_publish=True):
    """Providers, models and endpoints of the reference articles; one source per upstream with its
    refresh settings and mappings; a published baseline for the AA GLM-5.3 per-provider source."""
    w = SimpleNamespace()
    w.providers = {name: Provider.objects.create(name=name, slug=slug(name)) for name in PROVIDERS}
    w.models = {name: LanguageModel.objects.create(name=name, slug=slug(name)) for name in MODELS}
    p, m = w.providers, w.models

    def endpoint(provider, model, tier=""):
        return Endpoint.objects.create(provider=p[provider], model=m[model], tier=tier)

    w.glm = {
        "Baseten (Fast)": endpoint("Baseten", "GLM-5.3", "Fast"),
        "Together AI": endpoint("Together AI", "GLM-5.3"),
        "Baseten": endpoint("Baseten", "GLM-5.3"),
        "Novita AI": endpoint("Novita AI", "GLM-5.3"),
        "Z.ai": endpoint("Z.ai", "GLM-5.3"),
        "DeepInfra": endpoint("DeepInfra", "GLM-5.3"),
        "Fireworks": endpoint("Fireworks", "GLM-5.3"),
    }
    w.deepseek_first_party = endpoint("DeepSeek", "DeepSeek V4.1 Flash 1017")
    w.flash_zai = endpoint("Z.ai", "GLM-5.3-Flash")
    w.flash_fireworks = endpoint("Fireworks", "GLM-5.3-Flash")
    w.gpt_oss = {
        name: endpoint(name, "GPT-OSS 120B")
        for name in ("Cerebras", "Groq", "SambaNova", "Together AI", "DeepInfra")
    }

    def source(title, publisher, kind=Source.Kind.BENCHMARK):
        return Source.objects.create(
            title=title,
            publisher=publisher,
            url="https://example.com/" + slug(title),
            kind=kind,
            attribution="Data: Artificial Analysis" if publisher == "Artificial Analysis" else "",
            auto_publish=auto_publish,
        )

    w.aa_providers = source("GLM-5.3 providers", "Artificial Analysis")
    RefreshConfig.objects.create(
        source=w.aa_providers,
        adapter="artificial_analysis",
        params={"free_list": False, "models": ["glm-5-3"]},
        workload="10,000-token input",
        effort="Max",
        interval_minutes=60,
    )
    w.aa_free = source("Model medians", "Artificial Analysis")
    RefreshConfig.objects.create(
        source=w.aa_free, adapter="artificial_analysis", params={"include": ["*"]}, interval_minutes=60
    )
    w.openrouter = source("GLM-5.3 on OpenRouter", "OpenRouter", Source.Kind.PRICE_LIST)
    RefreshConfig.objects.create(
        source=w.openrouter, adapter="openrouter", params={"models": ["z-ai/glm-5.3"]}
    )
    w.litellm = source("LiteLLM prices", "LiteLLM", Source.Kind.PRICE_LIST)
    RefreshConfig.objects.create(
        source=w.litellm,
        adapter="litellm",
        params={
            "include": [
                "together_ai/*",
                "fireworks_ai/*",
                "deepinfra/*",
                "groq/*",
                "cerebras/*",
                "sambanova/*",
                "novita/*",
            ]
        },
    )

    def mapping(upstream, upstream_id, **target):
        return UpstreamMapping.objects.create(
            upstream=upstream, upstream_id=upstream_id, upstream_name=upstream_id, **target
        )

    aa_provider_ids = {
        "baseten-fast": "Baseten (Fast)",
        "together-ai": "Together AI",
        "baseten": "Baseten",
        "novita": "Novita AI",
        "zai": "Z.ai",
        "deepinfra": "DeepInfra",
        "fireworks": "Fireworks",
    }
    for upstream_id, name in aa_provider_ids.items():
        mapping("artificial_analysis", f"{AA_GLM_ID}/{upstream_id}", endpoint=w.glm[name])
    # Model-level rows of the free list describe the model's first-party API.
    mapping(
        "artificial_analysis", AA_DEEPSEEK_ID, provider=p["DeepSeek"], model=m["DeepSeek V4.1 Flash 1017"]
    )
    mapping("artificial_analysis", AA_FLASH_ID, provider=p["Z.ai"], model=m["GLM-5.3-Flash"])
    # GLM-5.3's model-level median duplicates Z.ai's per-provider row in another source: map it too.
    mapping("artificial_analysis", AA_GLM_ID, provider=p["Z.ai"], model=m["GLM-5.3"])
    # OpenAI has no endpoint of GPT-OSS 120B here: mapped, but unplaceable (listed as unmapped).
    w.openai = Provider.objects.create(name="OpenAI", slug="openai")
    mapping("artificial_analysis", AA_GPT_OSS_ID, provider=w.openai, model=m["GPT-OSS 120B"])

    for tag, name in {
        "together/fp8": "Together AI",
        "baseten/fp8": "Baseten",
        "novita/fp8": "Novita AI",
        "z-ai": "Z.ai",
        "deepinfra/fp4": "DeepInfra",
    }.items():
        mapping("openrouter", f"z-ai/glm-5.3|{tag}", endpoint=w.glm[name])

    for key, target in {
        "together_ai/zai-org/GLM-5.3": w.glm["Together AI"],
        "deepinfra/zai-org/GLM-5.3": w.glm["DeepInfra"],
        "novita/zai-org/glm-5.3": w.glm["Novita AI"],
        "fireworks_ai/accounts/fireworks/models/glm-5p3-flash": w.flash_fireworks,
        "together_ai/openai/gpt-oss-120b": w.gpt_oss["Together AI"],
        "deepinfra/openai/gpt-oss-120b": w.gpt_oss["DeepInfra"],
        "groq/openai/gpt-oss-120b": w.gpt_oss["Groq"],
        "cerebras/gpt-oss-120b": w.gpt_oss["Cerebras"],
        "sambanova/gpt-oss-120b": w.gpt_oss["SambaNova"],
    }.items():
        mapping("litellm", key, endpoint=target)

    # What readers see before any refresh: an older published AA snapshot and prices from 10 days ago.
    w.baseline = Snapshot.objects.create(
        source=w.aa_providers,
        measured_at=timezone.now() - datetime.timedelta(days=2),
        workload="10,000-token input",
    )
    for name, speed in {"Baseten (Fast)": "270.0", "Together AI": "160.0", "Z.ai": "95.0"}.items():
        Measurement.objects.create(
            snapshot=w.baseline, endpoint=w.glm[name], metric="output_speed_median", value=Decimal(speed)
        )
    w.price_day = timezone.localdate() - datetime.timedelta(days=10)
    for name, (inp, out) in {
        "Baseten (Fast)": ("2.10", "6.60"),
        "Together AI": ("1.40", "4.40"),
        "DeepInfra": ("0.90", "4.00"),
    }.items():
        Price.objects.create(
            endpoint=w.glm[name],
            input_per_m=Decimal(inp),
            output_per_m=Decimal(out),
            currency="USD",
            effective_date=w.price_day,
            source=w.aa_providers,
            snapshot=w.baseline,
        )
    w.baseline.publish()  # after its prices: the database refuses rows added to published history
    return w


def published_state():
    """Everything readers can see, to compare before and after a run that must not change it."""
    snapshots = list(Snapshot.objects.published().order_by("pk").values_list("pk", "checksum"))
    measurements = sorted(
        (m.snapshot_id, m.endpoint_id, m.metric, m.value) for m in Measurement.objects.published()
    )
    prices = sorted((p.pk, p.endpoint_id, p.input_per_m, p.output_per_m) for p in Price.objects.current())
    return snapshots, measurements, prices


class staged_history:
    """Let a test stage the past ("these prices were recorded yesterday") by editing published rows,
    which the history triggers otherwise refuse: `session_replication_role = replica` skips ordinary
    triggers for this transaction only, which the test rolls back anyway."""

    def __enter__(self):
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")

    def __exit__(self, *exc):
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = DEFAULT")


@pytest.fixture(name="world")
def world_fixture(db):
    return build_world()


@pytest.fixture(name="refresh")
def refresh_fixture(django_capture_on_commit_callbacks):
    """run_refresh with its after-commit work (cache invalidation) executed, as in production."""
    from benchmarks.ingest.refresh import run_refresh

    def run(source):
        with django_capture_on_commit_callbacks(execute=True):
            return run_refresh(source.pk)

    return run


def values_of(snapshot):
    return {(m.endpoint_id, m.metric): m.value for m in snapshot.measurements.all()}

