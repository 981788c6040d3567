"""The article body: data-bound blocks (one module each) and editorial blocks."""

from django.utils.translation import gettext_lazy as _
from wagtail import blocks

from .bar_chart import BarChartBlock
from .choosers import bulk_values, shared_chooser_lookups
from .editorial import (
    CallToActionBlock,
    FAQBlock,
    HeadingBlock,
    MethodologyBlock,
    NoteBlock,
    RelatedLinksBlock,
    SourcesBlock,
)
from .leaderboard import LeaderboardBlock
from .paragraph import DataParagraphBlock
from .picks import PicksTableBlock
from .provider_cards import ProviderCardsBlock
from .provider_list import EndpointListBlock, ProviderListBlock
from .provider_table import ProviderTableBlock
from .scatter import PriceSpeedScatterBlock
from .trend_chart import TrendChartBlock

RICH_TEXT_FEATURES = ["h3", "bold", "italic", "link", "ol", "ul", "code", "dataref", "statement"]


class ArticleBodyBlock(blocks.StreamBlock):
    def value_from_datadict(self, data, files, prefix):
        # Every chooser of the submitted body is looked up in one query per model (see choosers).
        with bulk_values(self, data, files, prefix):
            return super().value_from_datadict(data, files, prefix)

    def extract_references(self, value):
        # Wagtail's reference index converts the body block type by block type, each looking up the
        # same models and sources again; within one body, load each chosen object once.
        with shared_chooser_lookups():
            yield from super().extract_references(value)

    heading = HeadingBlock()
    paragraph = DataParagraphBlock(
        features=RICH_TEXT_FEATURES, label=_("Paragraph"), template="articles/blocks/paragraph.html"
    )
    note = NoteBlock()
    picks_table = PicksTableBlock()
    provider_table = ProviderTableBlock()
    bar_chart = BarChartBlock()
    trend_chart = TrendChartBlock()
    price_speed_scatter = PriceSpeedScatterBlock()
    provider_cards = ProviderCardsBlock()
    provider_list = ProviderListBlock()
    endpoint_list = EndpointListBlock()
    leaderboard = LeaderboardBlock()
    faq = FAQBlock()
    related_links = RelatedLinksBlock()
    methodology = MethodologyBlock()
    call_to_action = CallToActionBlock()
    sources = SourcesBlock()


__all__ = [
    "ArticleBodyBlock",
    "BarChartBlock",
    "EndpointListBlock",
    "FAQBlock",
    "LeaderboardBlock",
    "PicksTableBlock",
    "ProviderCardsBlock",
    "ProviderListBlock",
    "PriceSpeedScatterBlock",
    "ProviderTableBlock",
    "TrendChartBlock",
]
