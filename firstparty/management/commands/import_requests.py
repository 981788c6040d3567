from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from firstparty.importers import RecordImportError, import_records
from firstparty.runner_formats import FORMATS
from firstparty.runner_options import add_format_arguments, find_target, read_options


class Command(BaseCommand):
    help = (
        "Import per-request records into a run or a series: our JSONL/CSV, or a runner's own export (aiperf, "
        "GenAI-Perf, LLMPerf, vLLM benchmark_serving, GuideLLM; docs/first-party-runs.md). Any bad row rejects "
        "the whole file with row/column errors; nothing is written then."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="Path of the file.")
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--run", help="Run id or exact name.")
        target.add_argument("--series", help="Series id or exact name: the records feed its rolling windows.")
        add_format_arguments(parser)
        parser.add_argument("--aggregate", action="store_true",
                            help="Aggregate the run into its snapshot after the import (runs only).")

    def handle(self, *args, **options):
        path = Path(options["file"])
        target = find_target(options)
        if options["aggregate"] and options["series"]:
            raise CommandError("--aggregate is for runs; a series is aggregated per period by the beat task.")
        format_options = read_options(options)
        try:
            handle = path.open("rb")
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from None
        try:
            with handle:  # read in blocks, never whole: any size fits in bounded memory
                imported = import_records(target, handle, path.name, format_name=options["format"],
                                          options=format_options)
        except RecordImportError as rejected:
            for error in rejected.errors:
                self.stderr.write(f"{path.name}: {error}")
            raise CommandError(f"{path.name} rejected; nothing was written.") from None
        kind = "run" if options["run"] else "series"
        self.stdout.write(self.style.SUCCESS(
            f"Imported {imported.rows} records ({imported.format}, {FORMATS[imported.format][1]}) from {path.name} "
            f"into {kind} {target.pk} “{target}” (sha256 {imported.checksum})."
        ))
        for reason, count in imported.skipped.items():
            self.stdout.write(f"skipped {count}: {reason}")
        if options["aggregate"]:
            from firstparty.aggregation import aggregate_run

            snapshot = aggregate_run(target, publish=target.source.auto_publish)
            self.stdout.write(f"Aggregated into snapshot {snapshot.pk} ({snapshot.get_status_display()}).")
