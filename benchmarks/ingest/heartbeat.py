"""A refresh run's heartbeat: while the run works, a thread of its own moves `RefreshRun.heartbeat_at`
every REFRESH_HEARTBEAT_SECONDS, on a database connection of its own (the run's transaction would hide
it). A worker that is killed stops beating with it, and the sweep (scheduling.fail_stuck_runs) fails
the run once its last beat is REFRESH_HEARTBEAT_TIMEOUT_SECONDS old, instead of waiting for
REFRESH_STUCK_AFTER_MINUTES after it started. The thread beats whatever the run is blocked on (a slow
upstream, a lock), so a long run is never mistaken for a dead one."""

import logging
import os
import socket
import threading

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.utils import timezone

from ..refresh_models import RefreshRun

log = logging.getLogger(__name__)


def worker_label():
    return f"{socket.gethostname()}:{os.getpid()}"[:200]


class RunHeartbeat:
    def __init__(self, run_id, interval=None):
        self.run_id = run_id
        self.interval = float(settings.REFRESH_HEARTBEAT_SECONDS if interval is None else interval)
        self.stopped = threading.Event()
        self.thread = None

    def __enter__(self):
        if self.interval > 0 and self.run_id is not None:
            self.thread = threading.Thread(target=self.beat, name=f"refresh-heartbeat-{self.run_id}", daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        if self.thread is not None:
            self.thread.join(timeout=self.interval + 5)

    def beat(self):
        connection = None
        try:
            while not self.stopped.wait(self.interval):
                try:
                    if connection is None:
                        connection = connections.create_connection(DEFAULT_DB_ALIAS)
                    with connection.cursor() as cursor:
                        cursor.execute(
                            f"UPDATE {RefreshRun._meta.db_table} SET heartbeat_at = %s WHERE id = %s AND status = %s",
                            [timezone.now(), self.run_id, RefreshRun.Status.RUNNING],
                        )
                except DatabaseError as exc:  # the database is away: the sweep will judge by the silence
                    log.warning("refresh run %s: heartbeat not written: %s", self.run_id, exc)
                    if connection is not None:
                        connection.close()
                    connection = None
        finally:
            if connection is not None:
                connection.close()
