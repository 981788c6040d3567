"""Provider cards: providers ordered by their best value of a metric on any of the chosen models."""

from dataclasses import replace

from django.utils.translation import gettext_lazy
from wagtail import blocks

from articles.figures import Figure
from benchmarks.formatting import format_metric, printed_number
from benchmarks.metrics import get_metric

from .base import DataBlockMixin, metric_choice, model_chooser, once_per_render, source_chooser
from .choosers import BulkSnippetChooserBlock


class ModelSourceBlock(blocks.StructBlock):
    model = model_chooser()
    source = source_chooser(required=False)

    class Meta:
        icon = "site"
        label = gettext_lazy("Model")


class ProviderCardBlock(blocks.StructBlock):
    provider = BulkSnippetChooserBlock("benchmarks.Provider", label=gettext_lazy("provider"))
    # Rich text so that a claim in it ("leads two of the three current models") can be a checked
    # statement or hold a live figure, like the card's other texts.
    summary = blocks.RichTextBlock(
        required=False,
        features=["bold", "italic", "dataref", "statement"],
        label=gettext_lazy("one-line summary"),
        help_text=gettext_lazy("Empty: the provider's own one-line description."),
    )
    strengths = blocks.RichTextBlock(
        features=["bold", "italic", "link", "dataref", "statement"], label=gettext_lazy("strengths")
    )
    limitations = blocks.RichTextBlock(
        features=["bold", "italic", "link", "dataref", "statement"], label=gettext_lazy("limitations")
    )

    class Meta:
        icon = "user"
        label = gettext_lazy("Card")


class ProviderCardsValue(blocks.StructValue):
    @once_per_render
    def compute(self, data):
        metric = get_metric(self["metric"])
        models = [(item["model"], item["source"]) for item in self["models"]]
        cards = []
        for position, card in enumerate(self["cards"]):
            provider = card["provider"]
            best, values, sources = None, [], []
            for model, source in models:
                rows = [r for r in data.rows(model, metric.key, source) if r.endpoint.provider_id == provider.pk]
                for row in rows:
                    if best is None or metric.better(row.value, best.value):
                        best = row
                # The card shows the standard tier; a premium tier only where it is all there is.
                standard = next((r for r in rows if not r.endpoint.tier), rows[0] if rows else None)
                label = f"{model.name} {metric.unit}"
                text = format_metric(metric, standard.value if standard else None, suffix=False)
                values.append(
                    {
                        "label": label,
                        "text": text,
                        "measurement": standard,
                        "stale": data.is_stale(standard),
                        "figure": Figure(
                            row=provider.name, column=label, text=str(text),
                            endpoint=standard.endpoint if standard else None, metric=metric.key,
                            measurements=(standard,) if standard else (), stale=data.is_stale(standard),
                            value=printed_number(metric, standard.value) if standard else None,
                            unit=str(metric.unit),
                        ),
                    }
                )
                if rows and rows[0].snapshot.source not in sources:
                    sources.append(rows[0].snapshot.source)
            # A card prints no price: its footnotes cite the benchmark sources of its values only
            # (issue 25: footnotes follow what the page prints).
            cards.append(
                {
                    "provider": provider,
                    "summary": card["summary"] or provider.description,
                    "values": values,
                    "strengths": card["strengths"],
                    "limitations": card["limitations"],
                    "sources": sources,
                    "best": best,
                    "position": position,
                }
            )

        def order(card):
            if card["best"] is None:
                return (1, 0, card["position"])
            sign = -1 if metric.higher_is_better else 1
            return (0, sign * card["best"].value, card["position"])

        cards.sort(key=order)
        return {"cards": cards, "metric": metric}

    def figures(self, data):
        found = []
        for position, card in enumerate(self.compute(data)["cards"]):
            values = [item["figure"] for item in card["values"]]
            if values:
                # The cards' order ranks providers by their best value: the first figure carries it.
                first = values[0]
                values[0] = replace(first, ranking="cards", position=position)
            found += values
        return found


class ProviderCardsBlock(DataBlockMixin, blocks.StructBlock):
    metric = metric_choice(default="output_speed_median", label=gettext_lazy("order by best"))
    models = blocks.ListBlock(ModelSourceBlock(), label=gettext_lazy("models"))
    cards = blocks.ListBlock(ProviderCardBlock(), label=gettext_lazy("cards"))

    class Meta:
        icon = "group"
        label = gettext_lazy("Provider cards")
        template = "articles/blocks/provider_cards.html"
        value_class = ProviderCardsValue

    def data_requirements(self, value):
        for item in value["models"]:
            yield item["model"], item["source"]

    def prose_about_providers(self, value):
        """(provider name, card label): each card's text is about its provider even where it never
        names it, so a change in that provider's rank sends the editor back to the card."""
        return [(card["provider"].name, card["provider"].name) for card in value["cards"] if card["provider"]]
