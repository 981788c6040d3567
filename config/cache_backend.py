"""A Redis cache that degrades instead of failing: a cache outage must never take pages down.

django-redis's IGNORE_EXCEPTIONS already turns connection errors into cache misses; on top of it this
backend (1) logs one WARNING when Redis becomes unreachable and one when it is back, instead of a
traceback on every call, and (2) stops trying for a few seconds after a failure, so a Redis host
that times out (rather than refusing at once) costs each request one timeout at most, not one per
cache call.
"""

import logging
import sys
import threading
import time

from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted

logger = logging.getLogger("config.cache")


class _Unreachable:
    """Stands in for the Redis client while the circuit is open: every call fails at once."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise ConnectionInterrupted(connection=None) from ConnectionError("cache marked unreachable")

        return fail


class _OutageLog:
    """django-redis calls `logger.exception()` inside each ignored error; we record the outage instead."""

    def __init__(self, cache):
        self.cache = cache

    def exception(self, msg, *args, **kwargs):
        self.cache._failed(sys.exc_info()[1])


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        options = dict(params.get("OPTIONS", {}))
        # Without these a dead host makes every cache call wait for the OS TCP timeout (minutes).
        options.setdefault("SOCKET_CONNECT_TIMEOUT", 0.5)
        options.setdefault("SOCKET_TIMEOUT", 0.5)
        options["IGNORE_EXCEPTIONS"] = True
        self.retry_seconds = float(options.pop("RETRY_AFTER_SECONDS", 5))
        super().__init__(server, {**params, "OPTIONS": options})
        self._log_ignored_exceptions = True
        self.logger = _OutageLog(self)
        self._down_until = 0.0
        self._down = False
        self._lock = threading.Lock()
        self._unreachable = _Unreachable()

    @property
    def client(self):
        if self._down and time.monotonic() < self._down_until:
            return self._unreachable
        client = super().client
        if self._down:
            # Half-open: the next call tries Redis again; `_failed` re-opens the circuit if it fails.
            with self._lock:
                self._down_until = time.monotonic() + self.retry_seconds
            return _ProbeClient(self, client)
        return client

    def _failed(self, error):
        # Only the first failure opens the circuit; failures while it is open (or of the probe, which
        # already moved the window) must not push the next retry further away.
        with self._lock:
            first = not self._down
            if first:
                self._down = True
                self._down_until = time.monotonic() + self.retry_seconds
        if first:
            logger.warning(
                "Cache unreachable (%s): pages are rendered from the database until it is back; "
                "retrying every %s s.",
                error,
                self.retry_seconds,
            )

    def _recovered(self):
        with self._lock:
            was_down, self._down = self._down, False
        if was_down:
            logger.warning("Cache reachable again: page caching resumes.")


class _ProbeClient:
    """The real client, for the first call after an outage: a success closes the circuit."""

    def __init__(self, cache, client):
        self._cache = cache
        self._client = client

    # Only calls that reach Redis tell whether it is back (make_key and friends never fail).
    NETWORK_CALLS = frozenset(
        {"get", "set", "add", "get_many", "set_many", "delete", "delete_many", "incr", "decr", "has_key", "touch"}
    )

    def __getattr__(self, name):
        method = getattr(self._client, name)
        if name not in self.NETWORK_CALLS:
            return method

        def probe(*args, **kwargs):
            result = method(*args, **kwargs)
            self._cache._recovered()
            return result

        return probe


def redis_cache(location, key_prefix, **options):
    """The CACHES entry every settings module uses for Redis."""
    return {
        "BACKEND": "config.cache_backend.ResilientRedisCache",
        "LOCATION": location,
        "KEY_PREFIX": key_prefix,
        "OPTIONS": options,
    }
