from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from firstparty.importers import RecordImportError, import_records
from firstparty.models import Run


class Command(BaseCommand):
    help = (
        "Import per-request records an external runner wrote (JSONL or CSV, docs/first-party-runs.md) into a run. "
        "Any bad row rejects the whole file with row/column errors; nothing is written then."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="Path of the .jsonl or .csv file.")
        parser.add_argument("--run", required=True, help="Run id or exact name.")
        parser.add_argument("--aggregate", action="store_true",
                            help="Aggregate the run into its snapshot after the import.")

    def handle(self, *args, **options):
        path = Path(options["file"])
        run_key = options["run"]
        run = Run.objects.filter(pk=int(run_key)).first() if run_key.isdigit() else None
        run = run or Run.objects.filter(name=run_key).first()
        if run is None:
            raise CommandError(f"No run with id or name {run_key!r}.")
        try:
            handle = path.open("rb")
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from None
        try:
            with handle:  # read in blocks, never whole: any size fits in bounded memory
                imported = import_records(run, handle, path.name)
        except RecordImportError as rejected:
            for error in rejected.errors:
                self.stderr.write(f"{path.name}: {error}")
            raise CommandError(f"{path.name} rejected; nothing was written.") from None
        self.stdout.write(self.style.SUCCESS(
            f"Imported {imported.rows} records from {path.name} into run {run.pk} “{run}” (sha256 {imported.checksum})."
        ))
        if options["aggregate"]:
            from firstparty.aggregation import aggregate_run

            snapshot = aggregate_run(run, publish=run.source.auto_publish)
            self.stdout.write(f"Aggregated into snapshot {snapshot.pk} ({snapshot.get_status_display()}).")
