from django.core.management.base import BaseCommand

from benchmarks.metric_docs import DOC, markdown_table, write_docs


class Command(BaseCommand):
    help = "Print the metric table of the import formats docs from the registry (--write: update the docs)."

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true", help=f"rewrite the table in {DOC.name}")

    def handle(self, *args, write=False, **options):
        if write:
            write_docs()
            self.stdout.write(f"{DOC} updated.")
        else:
            self.stdout.write(markdown_table())
