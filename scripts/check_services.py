"""Before the tests: say exactly what to start when PostgreSQL or Redis is unreachable."""

import os
import socket
import sys
from urllib.parse import urlparse

SERVICES = [
    (
        "PostgreSQL",
        os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/llmbench",
        5432,
        "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    ),
    (
        "Redis",
        os.environ.get("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/14",
        6379,
        'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no',
    ),
]


def reachable(host, port):
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


def main():
    missing = []
    for name, url, default_port, start in SERVICES:
        parsed = urlparse(url)
        host, port = parsed.hostname or "127.0.0.1", parsed.port or default_port
        if not reachable(host, port):
            missing.append(f"{name} is not reachable at {host}:{port}. Start it with:\n    {start}")
    if missing:
        print("The test suite needs PostgreSQL and Redis.\n" + "\n".join(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
