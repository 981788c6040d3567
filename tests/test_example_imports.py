"""The import examples in docs/ import on the demo data, with the commands the documentation shows."""

import re
import shlex
from io import StringIO
from pathlib import Path

from django.core.management import CommandError, call_command

DOCS = Path(__file__).resolve().parent.parent / "docs"


def documented_commands():
    text = (DOCS / "import-formats.md").read_text()
    block = re.search(r"```sh\n(.*?)```", text, re.S).group(1).replace("\\\n", " ")
    return [shlex.split(line)[2:] for line in block.splitlines() if line.startswith("python manage.py import_")]


def test_every_documented_example_imports_on_the_demo_data(demo_site, monkeypatch):
    from benchmarks.models import Measurement, Price, Snapshot

    monkeypatch.chdir(DOCS.parent)
    commands = documented_commands()
    assert len(commands) == 4
    before = (Snapshot.objects.count(), Measurement.objects.count(), Price.objects.count())
    for name, *args in commands:
        errors = StringIO()
        try:
            call_command(name, *args, verbosity=0, stderr=errors)
        except CommandError as error:
            raise AssertionError(f"{name} {' '.join(args)}: {error}\n{errors.getvalue()}") from None
    snapshots, measurements, prices = Snapshot.objects.count(), Measurement.objects.count(), Price.objects.count()
    assert snapshots == before[0] + 4  # two measurement snapshots, two price imports
    assert measurements == before[1] + 18 + 14
    assert prices == before[2] + 6 + 4
