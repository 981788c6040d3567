"""An import's memory does not grow with the file: measured in a process of its own, as a worker runs it.
scripts/bench_uploads.py measures the whole upload at the size limit; this keeps the property tested."""

import json
import os
import subprocess
import sys

import pytest

from firstparty.models import Run
from tests.firstparty_support import first_party_source, make_endpoint, records_jsonl
from tests.worker_support import ROOT, database_url

MEMORY_PROBE = """
import json, sys
import django
django.setup()
from firstparty.importers import import_records
from firstparty.models import Run


def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024


run = Run.objects.get(pk=int(sys.argv[1]))
before = peak()
with open(sys.argv[2], "rb") as handle:
    imported = import_records(run, handle, "memory.jsonl")
print(json.dumps({"before": before, "after": peak(), "rows": imported.rows}))
"""


@pytest.mark.django_db(transaction=True)
def test_an_import_reads_in_bounded_memory(tmp_path):
    """The process's peak resident memory (VmHWM) grows by far less than the file: it is streamed, not held.
    Holding a 40 MB file's text and rows, as before, grew it by several hundred MB."""
    make_endpoint("acme")
    run = Run.objects.create(name="memory", source=first_party_source("memory"))
    path = tmp_path / "memory.jsonl"
    with path.open("w") as handle:
        for _part in range(10):
            handle.write(records_jsonl(20_000))
    size = path.stat().st_size
    assert size > 38 * 1024 * 1024
    result = subprocess.run(
        [sys.executable, "-c", MEMORY_PROBE, str(run.pk), str(path)], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "TEST_DATABASE_URL": database_url(), "DJANGO_SETTINGS_MODULE": "config.settings.test"},
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["rows"] == 200_000
    growth = figures["after"] - figures["before"]
    print(f"peak memory growth {growth / 2**20:.1f} MB for a {size / 2**20:.0f} MB file")
    assert growth < 48 * 1024 * 1024, f"peak memory grew by {growth / 2**20:.0f} MB for a {size / 2**20:.0f} MB file"
