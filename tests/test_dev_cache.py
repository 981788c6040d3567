"""`make run`'s processes share one cache: an import in another terminal shows on the served page at once."""

import datetime
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
# What the test environment exports for PostgreSQL/Redis would turn the dev settings' defaults off.
NOT_INHERITED = {"REDIS_URL", "CACHE_URL", "CELERY_BROKER_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE"}


def dev_env(cache_dir, **extra):
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.dev", DEV_CACHE_DIR=str(cache_dir), **extra)
    return env


def manage(env, *args):
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


READ_TWICE = """
import django
django.setup()
from django.conf import settings
from benchmarks.cache import data_generation
print(settings.CACHES["default"]["BACKEND"])
print(data_generation(), flush=True)
input()
print(data_generation(), flush=True)
"""


def test_a_generation_bump_in_one_dev_process_is_seen_by_a_running_one(tmp_path):
    env = dev_env(tmp_path / "cache", DATABASE_URL=f"sqlite:///{tmp_path / 'dev.sqlite3'}")
    running = subprocess.Popen(
        [sys.executable, "-c", READ_TWICE], cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )
    try:
        backend = running.stdout.readline().strip()
        before = int(running.stdout.readline())
        assert "locmem" not in backend.lower()
        bumped = manage(env, "shell", "-c", "from benchmarks.cache import bump_cache_generation as b; print(b())")
        after_text, errors = running.communicate("\n", timeout=60)
    finally:
        running.kill()
    assert running.returncode == 0, errors
    assert int(after_text) == int(bumped.strip().splitlines()[-1]) == before + 1


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url):
    for _ in range(100):
        try:
            return httpx.get(url, timeout=10)
        except httpx.TransportError:
            time.sleep(0.3)
    raise AssertionError(f"runserver did not answer at {url}")


# The whole `make run` setup in other processes, on its own SQLite file: the test database is untouched.
def test_cli_import_shows_on_the_page_runserver_serves_at_the_next_request(tmp_path):
    env = dev_env(tmp_path / "cache", DATABASE_URL=f"sqlite:///{tmp_path / 'dev.sqlite3'}")
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "update_translation_fields")
    manage(env, "load_demo")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/en/fastest-llm-api/"
        first = get(url)
        assert first.status_code == 200
        assert "283.4" in first.text and "412.7" not in first.text
        assert "283.4" in get(url).text  # the page now comes from the cache

        csv = tmp_path / "snapshot.csv"
        csv.write_text("provider,model,tier,metric,value\nbaseten,glm-5-3,Fast,output_speed_median,412.7\n")
        measured_at = (datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=5)).isoformat()
        manage(env, "import_snapshot", str(csv), "--source", "https://artificialanalysis.ai/models/glm-5-3/providers",
               "--measured-at", measured_at, "--publish")

        assert "412.7" in get(url).text
    finally:
        server.terminate()
        server.wait(timeout=30)
