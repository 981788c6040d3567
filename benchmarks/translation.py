from modeltranslation.decorators import register
from modeltranslation.translator import TranslationOptions

from .models import Provider, Source


@register(Provider)
class ProviderTR(TranslationOptions):
    # Data descriptions fall back to English: a missing Spanish line is better than an empty card.
    fields = ("description",)


@register(Source)
class SourceTR(TranslationOptions):
    fields = ("title", "attribution")
