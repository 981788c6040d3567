"""`make test` brings up what it needs (scripts/ensure_services.sh) or stops with one line saying what to do.

These run the script for real against this machine: the suite's own PostgreSQL and Redis are up, so
those checks pass, and each test changes one thing (an address, a missing program, the user).
"""

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "ensure_services.sh"
HIDDEN_FOR_A_BARE_MACHINE = {"chromium", "chromedriver", "apt-get"}


def run_script(tmp_path, script=SCRIPT, user=None, **env):
    full_env = {k: v for k, v in os.environ.items() if k != "CHROMIUM_PATH"}
    full_env.update(env)
    command = ["bash", str(script)]
    if user is not None:
        account = pwd.getpwnam(user)
        command = ["setpriv", f"--reuid={account.pw_uid}", f"--regid={account.pw_gid}", "--clear-groups", *command]
    return subprocess.run(command, env=full_env, capture_output=True, text=True, timeout=120, cwd=tmp_path)


def path_without(tmp_path, hidden, search=None):
    """A PATH holding every program of this machine's PATH except `hidden` (as on a machine without them)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for directory in (search or os.environ["PATH"]).split(os.pathsep):
        if not os.path.isdir(directory):
            continue
        for name in os.listdir(directory):
            target = Path(directory) / name
            if name in hidden or (bin_dir / name).exists() or not os.access(target, os.X_OK):
                continue
            (bin_dir / name).symlink_to(target)
    return str(bin_dir)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_everything_present_says_nothing(tmp_path):
    result = run_script(tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and result.stderr == ""


def test_unreachable_remote_database_stops_with_one_line(tmp_path):
    result = run_script(tmp_path, TEST_DATABASE_URL="postgres://postgres@db.invalid:5432/llmbench")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "make test: PostgreSQL at db.invalid:5432 is unreachable: start it there, "
        "or point TEST_DATABASE_URL at a local address"
    ]


def test_missing_browser_without_apt_get_names_what_to_install(tmp_path):
    result = run_script(tmp_path, PATH=path_without(tmp_path, HIDDEN_FOR_A_BARE_MACHINE))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "make test: missing chromium chromium-driver: install them with this machine's package manager "
        "(there is no apt-get), then run make test again"
    ]


@pytest.fixture
def plain_user_dir():
    """A directory outside pytest's (root-only) temporary tree that the user `nobody` owns."""
    path = Path(tempfile.mkdtemp(prefix="ensure-services-"))
    path.chmod(0o755)
    shutil.chown(path, "nobody")
    yield path
    shutil.rmtree(path)


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to switch to a plain user")
def test_missing_browser_as_plain_user_says_to_install_as_root(plain_user_dir):
    # The script writes its log under its checkout, so the plain user runs a copy in a directory it owns.
    (plain_user_dir / "scripts").mkdir()
    shutil.chown(plain_user_dir / "scripts", "nobody")
    script = plain_user_dir / "scripts" / SCRIPT.name
    shutil.copy(SCRIPT, script)
    # The system directories only: root's own tool directories are closed to other users.
    system_path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    path = path_without(plain_user_dir, {"chromium", "chromedriver", "sudo"}, search=system_path)
    result = run_script(plain_user_dir, script=script, user="nobody", PATH=path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "make test: missing chromium chromium-driver: run `apt-get install chromium chromium-driver` as root, "
        "then run make test again"
    ]


@pytest.mark.skipif(not shutil.which("redis-server"), reason="Redis is not installed on this machine")
def test_starts_redis_on_a_local_port_where_none_answers(tmp_path):
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    try:
        result = run_script(tmp_path, REDIS_URL=url, CELERY_BROKER_URL=f"redis://localhost:{port}/1")
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"make test: started Redis on 127.0.0.1:{port} (log ")
        ping = subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True, timeout=10)
        assert ping.stdout.strip() == "PONG"
        again = run_script(tmp_path, REDIS_URL=url, CELERY_BROKER_URL=url)
        assert again.returncode == 0 and again.stdout == ""
    finally:
        subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], capture_output=True, timeout=10)
