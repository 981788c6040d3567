"""Record the current English and Spanish of every tracked object that has no translation state yet.

Content created before the editorial app was installed has no baseline, so a later English edit could
not be told apart from the English the Spanish was translated from. Running this once fixes that;
running it again changes nothing.
"""

from django.contrib.contenttypes.models import ContentType
from django.core.management.base import BaseCommand
from wagtail.models import Page

from editorial.models import TranslationState
from editorial.signals import record_translation_state
from editorial.tracking import tracked_models


class Command(BaseCommand):
    help = "Record a translation-state baseline for pages and snippets that have none."

    def handle(self, *args, **options):
        created = 0
        for model in tracked_models():
            known = set(
                TranslationState.objects.filter(
                    content_type=ContentType.objects.get_for_model(model)
                ).values_list("object_id", flat=True)
            )
            queryset = model.objects.exclude(pk__in=known)
            if issubclass(model, Page):
                # The page row holds the live content; unpublished pages get their state when published.
                queryset = queryset.filter(live=True)
            for obj in queryset.iterator():
                record_translation_state(obj)
                created += 1
        self.stdout.write(f"translation states recorded: {created}")
