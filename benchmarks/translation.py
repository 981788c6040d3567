from modeltranslation.decorators import register
from modeltranslation.translator import TranslationOptions

from .models import Endpoint, Provider, Source


@register(Provider)
class ProviderTR(TranslationOptions):
    # Data descriptions fall back to English: a missing Spanish line is better than an empty card.
    fields = ("description",)


@register(Source)
class SourceTR(TranslationOptions):
    fields = ("title", "attribution")


@register(Endpoint)
class EndpointTR(TranslationOptions):
    # How pages name the endpoint; empty in Spanish falls back to the English label, then to "Provider (Tier)".
    fields = ("display_label",)
