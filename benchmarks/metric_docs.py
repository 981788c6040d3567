"""The metric table of docs/import-formats.md, written from the registry (benchmarks/metrics.py).

The docs hold the table between two markers; `manage.py metric_table --write` rewrites it, and a test
fails when the docs and the registry differ, so a new metric cannot go undocumented.
"""

from pathlib import Path

from django.utils import translation

from .metrics import _METRICS, COUNT, PERCENT

DOC = Path(__file__).resolve().parent.parent / "docs" / "import-formats.md"
START, END = "<!-- metric-table:start (manage.py metric_table --write) -->", "<!-- metric-table:end -->"
ALLOWED = {PERCENT: "0–100", COUNT: "whole number ≥ 0"}


def markdown_table():
    with translation.override("en"):
        lines = ["| metric key | meaning | unit | allowed values |", "| --- | --- | --- | --- |"]
        for metric in _METRICS:
            unit = "%" if metric.kind == PERCENT else str(metric.unit)
            lines.append(f"| `{metric.key}` | {metric.label} | {unit} | {ALLOWED.get(metric.kind, '≥ 0')} |")
    return "\n".join(lines)


def documented_table(text=None):
    """The table the docs hold now (between the markers)."""
    text = DOC.read_text() if text is None else text
    return text.split(START, 1)[1].split(END, 1)[0].strip()


def write_docs():
    text = DOC.read_text()
    before, rest = text.split(START, 1)
    after = rest.split(END, 1)[1]
    DOC.write_text(f"{before}{START}\n{markdown_table()}\n{END}{after}")
