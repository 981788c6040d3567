"""A throwaway PostgreSQL cluster the crash tests stop with `pg_ctl stop -m immediate` (what a power cut
or an OOM kill does to the server), and the application processes they run against it.

The shared server on 5432 serves other test runs: it is never touched here. The cluster is created
once per session in a temporary directory, on a free port, with trust authentication; initdb refuses
to run as root, so as root it runs as the `postgres` user. fsync is off: the operating system keeps
running, so what the server wrote survives its crash; commits stay synchronous (a commit the
application saw is in the WAL), which is what these tests rely on.

The schema comes from the session's own test database (migrated by pytest-django), dumped before any
test touched it (tests/conftest.py) and restored here: migrating from scratch takes 40 s. Without a
dump (a pg_dump that cannot read the server, say) it migrates.
"""

import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import psycopg
import redis

ROOT = Path(__file__).resolve().parent.parent
APP = Path(__file__).resolve().parent / "crash_app.py"
TEMPLATE = "crash_template"


def postgres_bin():
    """The directory of initdb and pg_ctl: PG_BIN, else the newest /usr/lib/postgresql/*/bin, else PATH."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
    if versions:
        return versions[-1].parent
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def missing_requirement():
    """Why the crash tests cannot run here, or None."""
    directory = postgres_bin()
    if directory is None or not (directory / "pg_ctl").exists():
        return "PostgreSQL server binaries (initdb, pg_ctl) are not installed"
    if os.geteuid() == 0 and (shutil.which("runuser") is None or _uid("postgres") is None):
        return "running as root needs runuser and a `postgres` user (initdb refuses root)"
    return None


def _uid(name):
    import pwd

    try:
        return pwd.getpwnam(name).pw_uid
    except KeyError:
        return None


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ThrowawayPostgres:
    def __init__(self):
        # Not under pytest's temporary directory: that one is private to us, and the server may run
        # as another user (postgres), who must reach its data directory and socket.
        self.root = Path(tempfile.mkdtemp(prefix="llmbench-crash-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.bin = postgres_bin()

    def _as_owner(self, *args, timeout=120):
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        done = subprocess.run(prefix + [str(a) for a in args], capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stderr or done.stdout}")
        return done

    def init(self):
        if os.geteuid() == 0:
            os.chown(self.root, _uid("postgres"), -1)
        self._as_owner(self.bin / "initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "-E", "UTF8",
                       "--locale=C.UTF-8", "--no-sync")
        return self

    def start(self):
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c fsync=off "
                   "-c full_page_writes=off -c max_connections=40")
        self._as_owner(self.bin / "pg_ctl", "-D", self.data, "-l", self.root / "server.log", "-w", "-t", "60",
                       "-o", options, "start")

    def crash(self):
        """Stop the server at once, as a crash does: no checkpoint, connections cut mid-transaction."""
        self._as_owner(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")

    def restart_after_crash(self):
        self.start()  # replays the WAL: committed transactions are back, open ones are gone

    def destroy(self):
        try:
            self.crash()
        except RuntimeError:
            pass  # not running
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database):
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def execute(self, sql, database="postgres"):
        with psycopg.connect(self.url(database), autocommit=True) as conn:
            cursor = conn.execute(sql)
            return cursor.fetchall() if cursor.description else None

    def clone(self, name, template=TEMPLATE):
        self.execute(f'DROP DATABASE IF EXISTS "{name}"')
        self.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')


def dump_database(url, target):
    """pg_dump of a migrated database (custom format); False when this pg_dump cannot read the server."""
    directory = postgres_bin()
    pg_dump = directory / "pg_dump" if directory else shutil.which("pg_dump")
    if not pg_dump:
        return False
    done = subprocess.run([str(pg_dump), "-Fc", "--no-owner", "--no-privileges", "-f", str(target), url],
                          capture_output=True, text=True, timeout=300)
    return done.returncode == 0


def build_template(cluster, dump, env, log):
    """Create the template database: the dumped schema (or a migration) and the demo site."""
    cluster.execute(f'CREATE DATABASE "{TEMPLATE}"')
    url = cluster.url(TEMPLATE)
    restored = False
    if dump is not None and Path(dump).exists():
        done = subprocess.run([str(postgres_bin() / "pg_restore"), "--no-owner", "--no-privileges",
                               "--exit-on-error", "-d", url, str(dump)], capture_output=True, text=True, timeout=300)
        restored = done.returncode == 0
        if not restored:  # e.g. a dump from a newer server: migrate instead
            log.write(f"pg_restore failed, migrating instead: {done.stderr}\n")
            cluster.execute(f'DROP DATABASE "{TEMPLATE}"')
            cluster.execute(f'CREATE DATABASE "{TEMPLATE}"')
    app_env = {**env, "TEST_DATABASE_URL": url}
    if not restored:
        for args in (["migrate", "--noinput", "-v", "0"], ["update_translation_fields"]):
            subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=app_env, check=True,
                           stdout=log, stderr=subprocess.STDOUT, timeout=600)
    world = AppProcess(["world"], app_env, log)
    return world.result(timeout=300)


class AppProcess:
    """tests/crash_app.py in a subprocess. It prints one JSON object per line: {"paused": point} when it
    reaches a pause point (then waits for a line on stdin), and {"result": …} when done."""

    def __init__(self, args, env, log):
        self.process = subprocess.Popen(
            [sys.executable, str(APP), *args], cwd=ROOT, env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            if line.startswith("{"):
                self.lines.put(json.loads(line))
        self.lines.put(None)

    def next_message(self, timeout=120):
        try:
            message = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            raise AssertionError(f"the application process said nothing for {timeout} s") from None
        if message is None:
            raise AssertionError(f"the application process ended (exit code {self.process.wait()})")
        return message

    def paused_at(self, point, timeout=120):
        message = self.next_message(timeout)
        assert message.get("paused") == point, message
        return message

    def resume(self):
        self.process.stdin.write("go\n")
        self.process.stdin.flush()

    def result(self, timeout=120):
        message = self.next_message(timeout)
        assert "result" in message, message
        self.process.wait(timeout=30)
        return message["result"]

    def ask(self, command, timeout=120, **arguments):
        """For the `serve` process: one command, its answer."""
        self.process.stdin.write(json.dumps({"command": command, **arguments}) + "\n")
        self.process.stdin.flush()
        return self.next_message(timeout)["result"]

    def kill(self):
        """SIGKILL: the process dies where it stands, nothing after this line of its code runs."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def close(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self.kill()


def forget_cache_keys(redis_url, prefix):
    """Delete this scenario's keys (and only them) from the shared Redis."""
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=500))
    for start in range(0, len(keys), 500):
        client.delete(*keys[start:start + 500])
