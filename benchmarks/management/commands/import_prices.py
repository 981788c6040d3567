from benchmarks.ingest.importers import import_prices

from ._import_base import ImportCommand


class Command(ImportCommand):
    help = (
        "Import list prices from a CSV or JSON file (docs/import-formats.md). The file is kept on a snapshot "
        "of the price-list source. Any error writes nothing and exits non-zero; the same file twice changes nothing."
    )
    importer = staticmethod(import_prices)

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--effective-date",
            dest="effective_date",
            help="Effective date (YYYY-MM-DD) for rows that give none.",
        )
        parser.add_argument(
            "--draft",
            action="store_true",
            help="Keep the price snapshot as a draft: its prices are not used until published.",
        )

    def importer_options(self, options):
        values = super().importer_options(options)
        if options.get("effective_date"):
            values["effective_date"] = options["effective_date"]
        values["publish"] = not options["draft"]
        return values
