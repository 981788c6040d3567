"""Fetch one upstream document, parse and validate it without mapping or writing, print a summary."""

import json

from django.core.management.base import BaseCommand, CommandError

from benchmarks.ingest.inspection import ADAPTERS, check_upstream, summary_lines


class Command(BaseCommand):
    help = (
        "Check an upstream: fetch URL (following the adapter's paging), parse and validate it as a refresh "
        "would, without mapping or writing anything; print pages, rows, figures, prices, skipped rows and problems."
    )

    def add_arguments(self, parser):
        parser.add_argument("adapter", choices=ADAPTERS)
        parser.add_argument(
            "--url",
            required=True,
            help="artificial-analysis-free: the models list URL (without ?page); openrouter: one model's "
            "endpoints URL; artificial-analysis-legacy, litellm: the document's URL.",
        )
        parser.add_argument("--json", action="store_true", help="Print one JSON object instead of lines.")

    def handle(self, *args, **options):
        summary = check_upstream(options["adapter"], options["url"])
        if options["json"]:
            self.stdout.write(json.dumps(summary, indent=2, ensure_ascii=False))
        else:
            self.stdout.write("\n".join(summary_lines(summary)))
        if summary["problems"]:
            raise CommandError(f"{len(summary['problems'])} problems found", returncode=1)
