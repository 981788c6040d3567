from benchmarks.ingest.importers import import_snapshot

from ._import_base import ImportCommand


class Command(ImportCommand):
    help = (
        "Import a snapshot with its measurements from a CSV or JSON file (docs/import-formats.md). "
        "The whole file is checked first; any error writes nothing and exits non-zero. "
        "Importing the same file again changes nothing."
    )
    importer = staticmethod(import_snapshot)

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--workload", help="What was measured, e.g. “10,000-token input”.")
        parser.add_argument("--effort", help="Effort / configuration the source benchmarked.")
        parser.add_argument("--concurrency", help="Concurrent requests.")
        parser.add_argument("--sample-size", dest="sample_size", help="Number of requests.")
        parser.add_argument(
            "--window-start", dest="window_start", help="Measurement window start (ISO 8601)."
        )
        parser.add_argument("--window-end", dest="window_end", help="Measurement window end (ISO 8601).")
        parser.add_argument(
            "--publish", action="store_true", help="Publish the snapshot (default: leave a draft)."
        )

    def importer_options(self, options):
        values = super().importer_options(options)
        for key in ("workload", "effort", "concurrency", "sample_size", "window_start", "window_end"):
            if options.get(key) not in (None, ""):
                values[key] = options[key]
        values["publish"] = options["publish"]
        return values
