"""Create the demo site: a bilingual home page and the reference articles. Safe to run twice."""

from django.core.management.base import BaseCommand
from django.db import transaction

from articles.demo import load_demo_site


class Command(BaseCommand):
    help = "Load demo content (home page and articles in English and Spanish). Running it twice changes nothing."

    def handle(self, *args, **options):
        with transaction.atomic():
            report = load_demo_site()
        for line in report:
            self.stdout.write(line)
