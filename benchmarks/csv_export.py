"""The one CSV writer of the project: every download and export writes its cells through it.

A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return before one) as a
formula: `=HYPERLINK(…)` in a provider's name or an upstream's error text would become a link or a
command on the reader's machine (OWASP "CSV injection"). Such a cell is written with a leading
apostrophe, which spreadsheets show as text and do not run. The full-width forms (＝ ＋ － ＠) and the
other compatibility forms that Unicode folds into those characters count too: spreadsheets with East
Asian input settings read `＝1+1` as a formula.

Only text is escaped. A number passed as a number (int, float, Decimal) is written as that number, so
a real -0.5 stays a number a spreadsheet can sum. Text that is exactly a plain decimal number
("-3.7", as a page prints a figure) is a number to a spreadsheet as well and cannot be a formula, so it
is left alone; any other text that starts with a trigger ("-2+3", "-3.7 pp", "+50 ms") is escaped.
Dates and times are written in ISO 8601, None as an empty cell.
"""

import csv
import re
import unicodedata
from datetime import date, datetime, time
from decimal import Decimal

TRIGGERS = frozenset("=+-@\t\r")
PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?\Z", re.ASCII)
LINE_END = "\r\n"  # RFC 4180


def is_formula(text):
    """Whether a spreadsheet could read this text as a formula (see the module's docstring)."""
    if not text:
        return False
    first = text[0]
    if first not in TRIGGERS and (first.isascii() or unicodedata.normalize("NFKC", first)[:1] not in TRIGGERS):
        return False
    return not PLAIN_NUMBER.match(text)


def safe_cell(value):
    """The value as written to a CSV cell: a number as a number, anything else as text, escaped."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return value  # the csv module writes repr(): digits, sign, point, exponent
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    text = str(value)
    return "'" + text if is_formula(text) else text


class _Echo:
    """A file whose write() returns the line: rows go straight into a streaming response."""

    def write(self, value):
        return value


class SafeWriter:
    """csv.writer with every cell through safe_cell(). Without a file, writerow() returns the line."""

    def __init__(self, file=None):
        self._writer = csv.writer(file if file is not None else _Echo(), lineterminator=LINE_END)

    def writerow(self, cells):
        return self._writer.writerow([safe_cell(cell) for cell in cells])


def csv_lines(header, rows):
    """The lines of a CSV file, one at a time (for a StreamingHttpResponse): the header, then the rows."""
    writer = SafeWriter()
    yield writer.writerow(header)
    for row in rows:
        yield writer.writerow(row)


def csv_text(header, rows):
    return "".join(csv_lines(header, rows))


def escape_wagtail_exports():
    """Wagtail's own CSV exports (the reports: site history, locked and aging pages, workflows; redirects)
    write with csv.DictWriter and escape nothing, and page titles or redirect targets are editors' text:
    their cells go through safe_cell() as well. Wagtail's xlsx export already keeps formulas as text."""
    from wagtail.admin.views.mixins import SpreadsheetExportMixin

    def write_csv_row(self, writer, row_dict):
        return writer.writerow({
            field: safe_cell(self.preprocess_field_value(field, value, self.FORMAT_CSV))
            for field, value in row_dict.items()
        })

    SpreadsheetExportMixin.write_csv_row = write_csv_row
