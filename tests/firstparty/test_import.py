"""Import of runner files: good files land whole and are kept with a checksum; bad rows reject the file."""

import gzip
import hashlib
import json

import pytest
from django.core.management import CommandError, call_command

from firstparty.importers import open_original
from firstparty.models import ImportedFile, RequestRecord, Run
from tests.firstparty_support import first_party_source, make_endpoint

pytestmark = pytest.mark.django_db

GOOD = [
    {"provider": "acme", "model": "glm-5-3-flash", "started_at": "2026-09-03T09:00:00Z", "outcome": "success",
     "ttft_s": 0.5, "e2e_s": 2.5, "output_tokens": 101, "token_count": "tokenizer:o200k_base", "region": "eu"},
    {"provider": "acme", "model": "glm-5-3-flash", "started_at": "2026-09-03T09:01:00Z", "outcome": "http_error",
     "http_status": 429, "error": "rate limited"},
    {"provider": "acme", "model": "glm-5-3-flash", "started_at": "2026-09-03T09:02:00+00:00", "outcome": "timeout"},
]


@pytest.fixture
def run(db):
    make_endpoint("acme")
    return Run.objects.create(name="batch 1", source=first_party_source("run source"))


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_jsonl_import_stores_records_and_the_file_with_its_checksum(tmp_path, run, capsys):
    text = "\n".join(json.dumps(row) for row in GOOD) + "\n"
    call_command("import_requests", str(write(tmp_path, "runner.jsonl", text)), "--run", str(run.pk))
    assert "Imported 3 records" in capsys.readouterr().out
    records = list(RequestRecord.objects.filter(run=run).order_by("started_at"))
    assert [r.outcome for r in records] == ["success", "http_error", "timeout"]
    assert records[0].tokens_per_second == pytest.approx(100 / 2.0)  # tokens after the first / time after it
    assert records[0].region == "eu" and records[1].http_status == 429
    kept = ImportedFile.objects.get(run=run)  # compressed in the uploads storage, the original bytes inside
    assert kept.stored.name.endswith(".gz") and kept.format == "jsonl"
    with kept.stored.open("rb") as stored:
        assert gzip.decompress(stored.read()) == text.encode()
    with open_original(kept) as original:
        assert original.read() == text.encode()
    assert kept.checksum == hashlib.sha256(text.encode()).hexdigest() and kept.rows == 3
    assert list(run.endpoints.values_list("provider__slug", flat=True)) == ["acme"]


def test_csv_import_by_run_name(tmp_path, run):
    header = "provider,model,started_at,outcome,ttft_s,e2e_s,output_tokens,token_count,http_status\n"
    text = header + "acme,glm-5-3-flash,2026-09-03T09:00:00Z,wrong_answer,0.4,1.4,51,usage,\n" \
        "acme,glm-5-3-flash,2026-09-03T09:01:00Z,http_error,,,,,503\n"
    call_command("import_requests", str(write(tmp_path, "runner.csv", text)), "--run", "batch 1")
    assert RequestRecord.objects.filter(run=run).count() == 2


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("bad.jsonl", "\n".join([json.dumps(GOOD[0]), json.dumps({**GOOD[0], "ttft_s": "fast"})]),
         ["row 2: column ttft_s: must be a number"]),
        ("bad.jsonl", "\n".join([json.dumps(GOOD[0]), "{not json", json.dumps({**GOOD[1], "http_status": None})]),
         ["row 2:", "row 3: column http_status: required for an HTTP error"]),
        ("bad.jsonl", json.dumps({**GOOD[0], "e2e_s": 0.1}), ["row 1: column e2e_s: ends before the first token"]),
        ("bad.jsonl", json.dumps({**GOOD[0], "provider": "nobody"}), ["row 1: columns provider/model/tier"]),
        ("bad.jsonl", json.dumps({**GOOD[0], "outcome": "great"}), ["row 1: column outcome: 'great' is not one of"]),
        ("bad.jsonl", json.dumps({**GOOD[0], "started_at": "2026-09-03 09:00"}), ["row 1: column started_at: give a time zone"]),
        ("bad.jsonl", json.dumps({**GOOD[0], "ttft_s": 99999}), ["row 1: column ttft_s: 99999 s is outside"]),
        ("bad.jsonl", json.dumps({**GOOD[0], "speed": 5}), ["row 1: unknown column(s) speed"]),
        ("bad.jsonl", json.dumps({**GOOD[0], "token_count": "tokenizer:"}),
         ["row 1: column token_count: 'tokenizer:' is not usage, chunks or tokenizer:<name>"]),
        ("bad.jsonl", json.dumps({**GOOD[0], "token_count": "words"}), ["row 1: column token_count: 'words'"]),
        ("bad.csv", "provider,model,started_at,outcome,output_tokens\nacme,glm-5-3-flash,2026-09-03T09:00:00Z,success,x\n",
         ["row 2: column output_tokens: must be a number"]),
        ("bad.txt", "whatever", ["use a .jsonl, .csv or .json file"]),
    ],
)
def test_bad_rows_reject_the_whole_file_with_row_and_column(tmp_path, run, capsys, name, text, expected):
    with pytest.raises(CommandError, match="nothing was written"):
        call_command("import_requests", str(write(tmp_path, name, text)), "--run", str(run.pk))
    errors = capsys.readouterr().err
    for part in expected:
        assert part in errors
    assert RequestRecord.objects.count() == 0 and ImportedFile.objects.count() == 0


def test_same_file_twice_is_refused_and_aggregated_run_is_closed(tmp_path, run):
    path = write(tmp_path, "runner.jsonl", "\n".join(json.dumps(row) for row in GOOD))
    call_command("import_requests", str(path), "--run", str(run.pk), "--aggregate")
    with pytest.raises(CommandError):
        call_command("import_requests", str(path), "--run", str(run.pk))
    run.refresh_from_db()
    assert run.snapshot.measurements.get(metric="sample_count").value == 3
    assert RequestRecord.objects.count() == 3


def test_texts_arrive_as_written_whatever_they_hold(tmp_path, run):
    """COPY's text format escapes backslashes, tabs and line breaks; a cell holding them is stored as sent."""
    odd = {**GOOD[1], "error": 'tab\there \\ back\nslash\r "quoted" ＝1+1 \u2028', "region": "eu-süd\\1"}
    call_command("import_requests", str(write(tmp_path, "odd.jsonl", json.dumps(odd))), "--run", str(run.pk))
    record = RequestRecord.objects.get(run=run)
    assert record.error == odd["error"] and record.region == odd["region"] and record.http_status == 429
