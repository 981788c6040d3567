"""Create the demo site: a bilingual home page and the reference articles. Safe to run twice.

`make run` runs this on every start, so by default it prints a short summary and keeps the INFO log
lines of what it sets off (Wagtail's "Page created"/"Published" for each page, the pre-render tasks
Celery runs in the process when no broker is configured) to itself; `-v 2` shows them and the full
report. Warnings and errors are always shown.
"""

import logging
from contextlib import contextmanager

from django.core.management.base import BaseCommand
from django.db import transaction

from articles.demo import load_demo_site


@contextmanager
def quiet_info_logs(quiet):
    if not quiet:
        yield
        return
    previous = logging.root.manager.disable
    logging.disable(logging.INFO)
    try:
        yield
    finally:
        logging.disable(previous)


def _count(number, noun):
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def summary(report):
    """The report (one line per snapshot, run and page) in a line or two."""
    created = [line.split(": ", 1)[1] for line in report if line.startswith("article created: ")]
    present = sum(line.startswith("article already present: ") for line in report)
    snapshots = sum(line.startswith("snapshot ") for line in report)
    runs = sum(line.startswith("run ") for line in report)
    if not (created or snapshots or runs):
        return [f"Demo site already loaded ({_count(present, 'article')}): nothing to do."]
    return [
        f"Demo site loaded: {_count(len(created), 'article')} created ({', '.join(created)}), "
        f"{_count(snapshots, 'benchmark snapshot')}, {_count(runs, 'first-party run')}.",
        "Details: manage.py load_demo -v 2.",
    ]


class Command(BaseCommand):
    help = "Load demo content (home page and articles in English and Spanish). Running it twice changes nothing."

    def handle(self, *args, **options):
        verbosity = options["verbosity"]
        with quiet_info_logs(verbosity < 2), transaction.atomic():
            report = load_demo_site()
        if verbosity == 0:
            return
        for line in report if verbosity >= 2 else summary(report):
            self.stdout.write(line)
