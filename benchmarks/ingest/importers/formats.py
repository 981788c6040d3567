"""The import file formats: columns, metadata keys, field widths, and how problems are reported."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

CSV = "csv"
JSON = "json"
FORMATS = (CSV, JSON)

MEASUREMENT_COLUMNS = {"required": ("provider", "model", "metric", "value"), "optional": ("tier",)}
PRICE_COLUMNS = {
    "required": ("provider", "model", "input_per_m", "output_per_m", "currency", "effective_date"),
    "optional": ("tier", "promo_input_per_m", "promo_output_per_m", "promo_until", "source"),
}
# Keys a snapshot JSON file may carry beside its "measurements" list; the same values can be
# given to the importer (command options, upload form) for a CSV file.
SNAPSHOT_META = (
    "source",
    "measured_at",
    "fetched_at",
    "workload",
    "effort",
    "concurrency",
    "sample_size",
    "window_start",
    "window_end",
)
PRICE_META = ("source", "measured_at", "effective_date")

# Field widths of the model's DecimalFields: (digits before the point, decimal places).
MEASUREMENT_DIGITS = (10, 6)
PRICE_DIGITS = (6, 6)
MAX_ERRORS = 200  # enough to fix a file; more would bury the first ones


@dataclass(frozen=True)
class ImportIssue:
    """One problem in an import file. `row` counts like a spreadsheet (CSV header = row 1)."""

    message: str
    row: int | None = None
    column: str | None = None

    def __str__(self):
        if self.row is not None and self.column:
            where = _("row %(row)s, column %(column)s") % {"row": self.row, "column": self.column}
        elif self.row is not None:
            where = _("row %(row)s") % {"row": self.row}
        elif self.column:
            where = _("field %(column)s") % {"column": self.column}
        else:
            return str(self.message)
        return f"{where}: {self.message}"


class ImportRejected(Exception):
    """The file has errors; nothing was written."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__("\n".join(str(error) for error in self.errors))


class _Errors(list):
    def add(self, message, row=None, column=None):
        self.append(ImportIssue(str(message), row, column))

    def raise_if_any(self):
        if self:
            raise ImportRejected(self[:MAX_ERRORS])
