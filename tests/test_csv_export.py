"""Every CSV the project writes goes through one writer that keeps a spreadsheet from running a cell as a
formula: the unit rules, then the real downloads that carry text from runners, upstreams and editors
(first-party records, Wagtail's own report exports; article figures are in test_downloads.py)."""

import csv
import io
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from benchmarks.csv_export import csv_text, safe_cell
from firstparty.aggregation import aggregate_run
from firstparty.models import RequestRecord, Run
from tests.firstparty_support import first_party_source, make_endpoint

# The payloads of the issue: a link, a command, a function, arithmetic, a full-width equals sign, a tab.
PAYLOADS = [
    '=HYPERLINK("http://x","y")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3",
    "＝1+1",
    "\t=1+1",
]


@pytest.mark.parametrize(
    "cell, written",
    [
        *[(payload, "'" + payload) for payload in PAYLOADS],
        ("＋1+1", "'＋1+1"),
        ("－2+3", "'－2+3"),
        ("＠SUM(A1)", "'＠SUM(A1)"),
        ("﹦1+1", "'﹦1+1"),  # the small form folds into "=" as well
        ("\r=1+1", "'\r=1+1"),
        ("\tplain", "'\tplain"),
        ("+50 ms", "'+50 ms"),
        ("-3.7 pp", "'-3.7 pp"),
        ("-1e5", "'-1e5"),
        ("-３.７", "'-３.７"),  # full-width digits are not a plain number
        ("-3.7", "-3.7"),  # text that is exactly a number is a number to a spreadsheet, never a formula
        ("283.4", "283.4"),
        ("Baseten", "Baseten"),
        ("a=b", "a=b"),
        ("", ""),
    ],
)
def test_text_a_spreadsheet_would_run_is_escaped(cell, written):
    assert safe_cell(cell) == written


@pytest.mark.parametrize("number", [-0.5, -2, Decimal("-2.5"), 0, 1e-7])
def test_numbers_stay_numbers(number):
    line = csv_text(["n"], [[number]]).splitlines()[1]
    assert float(line) == float(number) and not line.startswith("'")


def test_the_writer_quotes_and_escapes_together():
    text = csv_text(["name", "value"], [['=HYPERLINK("http://x","y")', Decimal("-2.50")], [None, datetime(2026, 9, 3, tzinfo=UTC)]])
    assert list(csv.reader(io.StringIO(text))) == [
        ["name", "value"], ["'=HYPERLINK(\"http://x\",\"y\")", "-2.50"], ["", "2026-09-03T00:00:00+00:00"],
    ]
    assert text.endswith("\r\n")


@pytest.mark.django_db
def test_records_csv_escapes_runner_and_provider_text(editor_client):
    """The provenance download of a first-party snapshot: regions and errors come from runners' files and
    providers' answers."""
    endpoint = make_endpoint("acme")
    run = Run.objects.create(name="evil", source=first_party_source("evil"))
    start = datetime(2026, 9, 3, 9, tzinfo=UTC)
    RequestRecord.objects.bulk_create(
        [RequestRecord(endpoint=endpoint, run=run, started_at=start.replace(minute=i), outcome="http_error",
                       http_status=500, error=payload, region=payload[:50]) for i, payload in enumerate(PAYLOADS)]
        + [RequestRecord(endpoint=endpoint, run=run, started_at=start.replace(minute=30), outcome="success",
                         ttft_s=0.5, e2e_s=1.5, output_tokens=11, token_count="usage", tokens_per_second=10.0)]
    )
    snapshot = aggregate_run(run)
    response = editor_client.get(reverse("firstparty_actions:records_csv", args=[snapshot.pk]))
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [row["error"] for row in rows[:-1]] == ["'" + payload for payload in PAYLOADS]
    assert [row["region"] for row in rows[:-1]] == ["'" + payload for payload in PAYLOADS]
    assert rows[-1]["ttft_s"] == "0.5" and rows[-1]["tokens_per_second"] == "10.0" and rows[-1]["error"] == ""


@pytest.mark.django_db
def test_wagtail_report_exports_escape_page_titles(editor_client, django_user_model):
    """Wagtail's own exports (here the locked-pages report) write editors' page titles."""
    from django.utils import timezone
    from wagtail.models import Page

    root, editor = Page.get_first_root_node(), django_user_model.objects.get(username="editor")
    for n, payload in enumerate(PAYLOADS):
        root.add_child(instance=Page(title=payload, slug=f"evil-{n}", locked=True, locked_by=editor,
                                     locked_at=timezone.now()))
    response = editor_client.get(reverse("wagtailadmin_reports:locked_pages") + "?export=csv")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    titles = {row[0] for row in rows[1:]}
    assert {"'" + payload for payload in PAYLOADS} <= titles
    assert not any(cell.startswith(("=", "+", "-", "@", "＝", "\t")) for row in rows[1:] for cell in row)
