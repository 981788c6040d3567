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


def upload_fields(name, args):
    """The upload form's fields for a documented command line: the same file and options."""
    from benchmarks.models import Source

    path, *options = args
    fields, publish = {}, name == "import_prices"  # prices are used at once unless --draft
    while options:
        option = options.pop(0)
        if option == "--publish":
            publish = True
        elif option == "--draft":
            publish = False
        else:
            key, value = option.removeprefix("--").replace("-", "_"), options.pop(0)
            fields[key] = Source.objects.get(url=value).pk if key == "source" else value
    if publish:
        fields["publish"] = "on"
    return Path(path), fields


def test_the_same_examples_upload_through_the_admin_forms(demo_site, editor_client):
    """The documentation offers the upload pages as the other way in: the example files work there too."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    from benchmarks.models import Measurement, Price, Snapshot, Upload
    from tests.upload_support import post_upload

    before = (Snapshot.objects.count(), Measurement.objects.count(), Price.objects.count())
    for name, *args in documented_commands():
        path, fields = upload_fields(name, args)
        kind = "snapshot" if name == "import_snapshot" else "prices"
        page = post_upload(  # the import runs in its task; the progress page tells how it ended
            editor_client, reverse(f"benchmarks_import_{kind}:upload"),
            {"file": SimpleUploadedFile(path.name, (DOCS.parent / path).read_bytes()), **fields},
        )
        upload = Upload.objects.latest("pk")
        assert upload.status == "done" and "import-errors" not in page.text, f"{path}: {upload.errors}"
        assert "already imported" not in upload.summary, path
    assert (Snapshot.objects.count(), Measurement.objects.count(), Price.objects.count()) == (
        before[0] + 4, before[1] + 18 + 14, before[2] + 6 + 4
    )


def test_the_request_records_example_imports_into_a_demo_run(demo_site, tmp_path):
    """docs/first-party-runs.md shows JSONL records of an external runner; they name demo endpoints."""
    from firstparty.models import Run

    text = (DOCS / "first-party-runs.md").read_text()
    section = text[text.index("## Importing an external runner's file"):]
    records = re.search(r"```json\n(.*?)```", section, re.S).group(1)
    source = Run.objects.select_related("source").first().source
    run = Run.objects.create(source=source, name="External runner, docs example")
    path = tmp_path / "records.jsonl"
    path.write_text(records)
    call_command("import_requests", str(path), "--run", run.name, verbosity=0, stdout=StringIO())
    assert run.records.count() == len(records.strip().splitlines()) == 2
