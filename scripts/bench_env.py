"""What every benchmark script shares: a scratch database, a cache prefix of its own, a gunicorn on the
port asked for. Redis databases are shared with other people's runs and servers: nothing here flushes one."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def own_key_prefix():
    """One prefix for the whole run; gunicorn and Celery workers inherit it through the environment."""
    return os.environ.get("BENCH_KEY_PREFIX") or f"bench-{os.getpid()}"


def configure(args):
    prefix = own_key_prefix()
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY="bench-only-" + "k3y!" * 12,
        DATABASE_URL=args.database_url,
        CELERY_BROKER_URL=args.redis_url,
        REDIS_URL=args.redis_url,
        # CACHE_URL wins over REDIS_URL in the settings: an exported one would send the run's keys elsewhere.
        CACHE_URL=args.redis_url,
        BENCH_KEY_PREFIX=prefix,
        CACHE_KEY_PREFIX=prefix,
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
    )
    sys.path.insert(0, str(ROOT))


def recreate_database(url):
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def clear_own_keys():
    """Empty this run's cache keys only; emptying the whole cache would flush a Redis database others use."""
    from django.conf import settings
    from django.core.cache import cache

    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    if not prefix.startswith("bench-"):
        raise SystemExit(f"refusing to empty the cache: its key prefix {prefix!r} is not this run's own")
    cache.delete_pattern("*")  # django-redis: the pattern is taken under the key prefix


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_in_use(port):
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def start_gunicorn(port, workers=2):
    """gunicorn on 127.0.0.1:`port` (0: a free one); returns (process, port). A port already taken stops
    the run: waiting for "a server on that port" would otherwise measure whoever else is listening there."""
    port = port or free_port()
    if port_in_use(port):
        raise SystemExit(f"port {port} is in use: pass --port with a free one (or 0 for any)")
    gunicorn = Path(sys.executable).parent / "gunicorn"
    process = subprocess.Popen(
        [str(gunicorn), "config.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
         "--log-level", "warning"],
        cwd=ROOT, env=os.environ.copy(),
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn exited with status {process.returncode} (could it bind port {port}?)")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/static/css/site.css", timeout=2).read()
            return process, port
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise SystemExit("gunicorn did not start")


def stop(process, timeout=120):
    """Stop a gunicorn this run started: TERM, then KILL if it is still there after `timeout` s (a busy
    machine can take more than 30 s to let its workers finish)."""
    import subprocess

    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=30)
