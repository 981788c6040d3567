"""The probe's HTTP client: one per worker process, built before any request is timed and reused.

Building an httpx.Client loads the CA bundle into a new SSL context, which cost 91–350 ms on a busy
machine; when that happened inside the timed span every TTFT carried it (issue 23). A client kept per
process also keeps its connection pool, so consecutive requests to one provider reuse an open
connection, as a user's application does; a request that has to open one records the set-up time
separately (RequestRecord.connect_s).

Clients are keyed by process id: a Celery prefork child must never use sockets inherited from its
parent. They are closed when the worker process shuts down (Celery signals) or the interpreter exits.
"""

import atexit
import os
import threading

import httpx
from celery.signals import worker_process_shutdown, worker_shutdown

# Enough pooled connections for `manage.py probe --concurrency` (at most MAX_CONCURRENCY) to keep each
# one open between requests.
MAX_CONCURRENCY = 64
LIMITS = httpx.Limits(max_connections=MAX_CONCURRENCY, max_keepalive_connections=MAX_CONCURRENCY)

_clients = {}
_lock = threading.Lock()


def build_client(transport=None):
    """A new client; timeouts are given per request, redirects are never followed (an API does not redirect)."""
    return httpx.Client(transport=transport, follow_redirects=False, limits=LIMITS, timeout=None)


def pooled_client(transport=None):
    """This process's client for `transport` (None: the network), built on first use."""
    key = (os.getpid(), transport)
    with _lock:
        client = _clients.get(key)
        if client is None or client.is_closed:
            client = _clients[key] = build_client(transport)
        return client


def close_clients(**_signal_kwargs):
    """Close this process's clients (their pooled connections); others' entries are only forgotten."""
    pid = os.getpid()
    with _lock:
        entries = list(_clients.items())
        _clients.clear()
    for (owner, _transport), client in entries:
        if owner == pid:
            client.close()


worker_process_shutdown.connect(close_clients, weak=False)
worker_shutdown.connect(close_clients, weak=False)
atexit.register(close_clients)
