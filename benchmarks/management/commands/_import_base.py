"""Shared plumbing of the import_snapshot and import_prices commands."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from benchmarks.ingest.importers import FORMATS, ImportRejected


class ImportCommand(BaseCommand):
    importer = None  # set by subclasses: a function from benchmarks.ingest.importers
    # Django's system checks (URL patterns, templates, admin and model definitions: the whole project)
    # say nothing about a file and cost a tenth of a large import run from the shell; every check of the
    # file itself still runs. `manage.py check` and every server start run the system checks.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", help="Path of the CSV or JSON file (see docs/import-formats.md).")
        parser.add_argument(
            "--format",
            choices=FORMATS,
            help="File format; by default taken from the extension, else from the content.",
        )
        parser.add_argument("--source", help="Source id or URL (required for CSV; a JSON file may name it).")
        parser.add_argument(
            "--measured-at", dest="measured_at", help="ISO 8601 date and time of the measurement."
        )

    def importer_options(self, options):
        keys = ("source", "measured_at")
        return {key: options[key] for key in keys if options.get(key) not in (None, "")}

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            size = path.stat().st_size
            # The importers hold the whole file (it becomes the snapshot's raw payload): a size cap keeps
            # their memory bounded, as on the upload pages.
            if size > settings.IMPORT_MAX_BYTES:
                raise CommandError(
                    f"{path}: {size:,} bytes is more than IMPORT_MAX_BYTES ({settings.IMPORT_MAX_BYTES:,}); "
                    "split the file, or raise the setting where the memory allows."
                )
            raw = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from None
        try:
            result = self.importer(
                raw, options["format"], filename=path.name, **self.importer_options(options)
            )
        except ImportRejected as rejected:
            for error in rejected.errors:
                self.stderr.write(f"{path.name}: {error}")
            count = len(rejected.errors)
            raise CommandError(
                f"{count} error{'s' if count != 1 else ''} in {path.name}; nothing was written."
            ) from None
        if result.created and result.held:  # written, but as a draft an editor must check first
            self.stdout.write(self.style.WARNING(str(result.summary)))
        else:
            self.stdout.write(self.style.SUCCESS(str(result.summary)) if result.created else str(result.summary))
