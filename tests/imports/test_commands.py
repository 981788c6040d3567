"""The import management commands: reports, idempotence, exit codes."""

import os
import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from benchmarks.models import Snapshot

from .support import (
    EXAMPLES,
    PRICE_HEADER,
    ROOT,
    csv_snapshot,
    nothing_written,
)

# --- good files ---------------------------------------------------------------------------------


# --- management commands -------------------------------------------------------------------------


def test_import_snapshot_command_reports_and_is_idempotent(catalogue):
    path = str(EXAMPLES / "snapshot.json")
    out = StringIO()
    call_command("import_snapshot", path, "--publish", stdout=out)
    assert "Imported 14 measurements into snapshot" in out.getvalue() and "published" in out.getvalue()
    out = StringIO()
    call_command("import_snapshot", path, stdout=out)
    assert "already imported" in out.getvalue()
    assert Snapshot.objects.count() == 1


def test_import_prices_command_lists_errors_and_fails(catalogue, tmp_path):
    bad = tmp_path / "prices.csv"
    bad.write_text(
        f"{PRICE_HEADER}\nzai,glm-5-3,,1.40,4.40,,2026-11-28\nzai,glm-5-3,,x,4.40,USD,2026-11-29\n"
    )
    err = StringIO()
    with pytest.raises(CommandError, match=r"2 errors in prices.csv; nothing was written"):
        call_command(
            "import_prices", str(bad), "--source", str(catalogue["sources"]["price_list"].pk), stderr=err
        )
    assert err.getvalue().splitlines() == [
        "prices.csv: row 2, column currency: A price needs a currency (e.g. USD).",
        "prices.csv: row 3, column input_per_m: 'x' is not a number",
    ]
    assert nothing_written()


def test_command_exits_non_zero_on_bad_input(db, tmp_path):
    # A separate process sees only committed rows: none here, so every name in the file is unknown.
    bad = tmp_path / "snapshot.csv"
    bad.write_bytes(csv_snapshot("nobody,glm-5-3,,output_speed_median,fast"))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    env["TEST_DATABASE_URL"] = "postgres://{USER}@{HOST}:{PORT}/{NAME}".format(
        **{k: connection.settings_dict[k] or "" for k in ("USER", "HOST", "PORT", "NAME")}
    )
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "import_snapshot",
            str(bad),
            "--source",
            "1",
            "--measured-at",
            "2026-11-28",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "snapshot.csv: row 2, column provider: unknown provider “nobody”" in result.stderr
    assert "snapshot.csv: row 2, column value: 'fast' is not a number" in result.stderr
    assert "nothing was written" in result.stderr


def test_a_snapshot_file_over_the_import_limit_is_refused_unread(catalogue, settings):
    """The snapshot importer holds its file whole: the commands keep to IMPORT_MAX_BYTES as the uploads do."""
    settings.IMPORT_MAX_BYTES = 1000
    path = EXAMPLES / "snapshot.json"
    with pytest.raises(CommandError, match=r"snapshot.json: [\d,]+ bytes is more than IMPORT_MAX_BYTES \(1,000\)"):
        call_command("import_snapshot", str(path), stdout=StringIO())
    assert nothing_written()
