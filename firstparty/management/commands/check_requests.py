"""Read a runner's records file as `import_requests` would and print what it holds, writing nothing."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from firstparty.record_inspection import inspect_file
from firstparty.runner_formats import FormatError
from firstparty.runner_options import add_format_arguments, read_options


class Command(BaseCommand):
    help = (
        "Check a records file (our JSONL/CSV or a runner's export) without writing anything: its format, "
        "records, outcome counts, requests skipped and why, row errors, and the summary a run would publish "
        "(same keys as `probe --json`). Exit status 1 when a row would reject the file."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="Path of the file.")
        add_format_arguments(parser)
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            with path.open("rb") as handle:
                result = inspect_file(handle, path.name, options["format"], read_options(options))
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from None
        except FormatError as exc:
            raise CommandError(f"{path.name}: {exc}") from None
        if options["json"]:
            self.stdout.write(json.dumps(result, indent=2))
        else:
            self.stdout.write("\n".join(self.lines(path.name, result)))
        if result["errors"]:
            raise CommandError(f"{path.name} would be rejected: {len(result['errors'])} row error(s).", returncode=1)

    @staticmethod
    def lines(name, result):
        from firstparty.probe_check import summary_lines

        outcomes = ", ".join(f"{k} {v}" for k, v in result["outcomes"].items())
        lines = [f"{name}: {result['format']}, {result['records']} records ({outcomes})"]
        lines += [f"skipped {item['count']}: {item['reason']}" for item in result["skipped"]]
        lines += [f"endpoint {label}: {count}" for label, count in result["endpoints"].items()]
        lines += summary_lines({"base_url": "-", "model": "-", "concurrency": "-", "requests": [],
                                "summary": result["summary"]})[1:]
        lines += [f"error: {error}" for error in result["errors"]]
        return lines
