"""Builders for demo article bodies: one call per block, in the language being built.

Texts are given as (English, Spanish) pairs; the builder picks the page language's half, so each
article's body is written once and both StreamFields get the same structure block for block.
Data blocks name models, sources, providers and endpoints by slug (as `benchmarks.demo_data` loads them).
"""


from articles.blocks.inline_text import plain_to_rich


class DemoBlocks:
    def __init__(self, lang, data):
        self.lang = lang
        self.data = data

    # --- text and data lookups --------------------------------------------------------------
    def text(self, pair):
        english, spanish = pair
        return english if self.lang == "en" else spanish

    def model(self, slug):
        return self.data["models"][slug].pk

    def source(self, key):
        return self.data["sources"][key].pk

    def provider(self, slug):
        return self.data["providers"][slug].pk

    def endpoint(self, provider, model, tier=""):
        return self.data["endpoints"][(provider, model, tier)].pk

    # --- editorial blocks -------------------------------------------------------------------
    def heading(self, english, spanish, level="h2"):
        return {"type": "heading", "value": {"text": self.text((english, spanish)), "level": level, "anchor": ""}}

    def paragraph(self, english, spanish):
        return {"type": "paragraph", "value": self.text((english, spanish))}

    def note(self, pair, style="note"):
        return {"type": "note", "value": {"style": style, "text": self.text(pair), "citations": []}}

    def methodology(self, heading, text, citations=()):
        return {
            "type": "methodology",
            "value": {
                "heading": self.text(heading),
                "text": self.text(text),
                "citations": [self.source(key) for key in citations],
            },
        }

    def sources(self, heading):
        return {"type": "sources", "value": {"heading": self.text(heading)}}

    def faq(self, heading, items):
        """items: (question pair, answer pair)."""
        return {
            "type": "faq",
            "value": {
                "heading": self.text(heading),
                "items": [{"question": self.text(q), "answer": self.text(a)} for q, a in items],
            },
        }

    def related_links(self, heading, links):
        return {"type": "related_links", "value": {"heading": self.text(heading), "links": links}}

    def call_to_action(self, heading, text, button, url):
        return {
            "type": "call_to_action",
            "value": {
                "heading": self.text(heading),
                "text": self.text(text),
                "button_text": self.text(button),
                "url": url,
            },
        }

    # --- live figures in prose --------------------------------------------------------------
    def dataref(self, model, source, metric="output_speed_median", compare="", endpoint=None):
        """A live figure in prose: the page prints the current published value, never a typed one.

        compare="count" / "leader" / "rank" print how many hosts are measured, the leader's name and
        an endpoint's rank (endpoint: (provider, tier)), so facts in sentences follow the data too.
        """
        endpoint_attr = f'endpoint="{self.endpoint(endpoint[0], model, endpoint[1])}" ' if endpoint else ""
        return (
            f'<embed embedtype="dataref" model="{self.model(model)}" {endpoint_attr}source="{self.source(source)}" '
            f'metric="{metric}" compare="{compare}"/>'
        )

    # --- data blocks ------------------------------------------------------------------------
    def picks_table(self, rows, caption=""):
        return {"type": "picks_table", "value": {"caption": plain_to_rich(caption), "rows": rows}}

    def pick(self, need, model, source, compare=None, extra_citations=(), cite_price=False):
        """compare: (provider, model, tier) of the endpoint the pick is compared with.

        cite_price: also cite the price page of whichever endpoint is picked (it follows the data).
        """
        return {
            "need": need,
            "model": self.model(model),
            "source": self.source(source),
            "compare_with": self.endpoint(*compare) if compare else None,
            "cite_price": cite_price,
            "extra_citations": [self.source(key) for key in extra_citations],
        }

    def provider_table(self, model, source, columns, sort_metric, *, differences=(), name_style="short",
                       show_api_model=False, cite_sources=True, caption=""):
        """columns: metric names or "price"; differences: the columns that get a "Δ vs leader" column."""
        return {
            "type": "provider_table",
            "value": {
                "model": self.model(model),
                "source": self.source(source),
                "columns": [{"field": name, "difference_to_leader": name in differences} for name in columns],
                "sort_metric": sort_metric,
                "name_style": name_style,
                "show_api_model": show_api_model,
                "cite_sources": cite_sources,
                "caption": plain_to_rich(caption),
            },
        }

    def bar_chart(self, model, source, metric, note_pair, name_style="short"):
        return {
            "type": "bar_chart",
            "value": {
                "model": self.model(model),
                "source": self.source(source),
                "metric": metric,
                "name_style": name_style,
                "note": plain_to_rich(self.text(note_pair)),
            },
        }

    def price_speed_scatter(self, model, source, note_pair, name_style="short"):
        """Output price per 1M tokens (x) against output speed (y), its Pareto frontier drawn."""
        return {
            "type": "price_speed_scatter",
            "value": {
                "model": self.model(model),
                "source": self.source(source),
                "x_axis": "price_output",
                "y_metric": "output_speed_median",
                "name_style": name_style,
                "note": plain_to_rich(self.text(note_pair)),
                "caption_en": "",
            },
        }

    def trend_chart(self, model, source, metric, days, note_pair, name_style="short"):
        """One metric over the source's published snapshots of the last `days` days."""
        return {
            "type": "trend_chart",
            "value": {
                "model": self.model(model),
                "source": self.source(source),
                "metric": metric,
                "days": days,
                "name_style": name_style,
                "note": plain_to_rich(self.text(note_pair)),
                "caption_en": "",
            },
        }

    def provider_cards(self, metric, models, cards):
        """models: (model, source) pairs; cards: from `card()`."""
        return {
            "type": "provider_cards",
            "value": {
                "metric": metric,
                "models": [{"model": self.model(m), "source": self.source(s)} for m, s in models],
                "cards": cards,
            },
        }

    def card(self, provider, summary, strengths, limitations):
        return {
            "provider": self.provider(provider),
            # Stored as the rich-text editor stores it (one paragraph), so a save changes nothing.
            "summary": _paragraph(self.text(summary)),
            "strengths": self.text(strengths),
            "limitations": self.text(limitations),
        }

    def endpoint_list(self, model, source, order_by, name_style="full"):
        return {
            "type": "endpoint_list",
            "value": {
                "model": self.model(model),
                "source": self.source(source),
                "order_by": order_by,
                "name_style": name_style,
            },
        }

    def provider_list(self, model, source, pattern, order_by, name_style="full"):
        return {
            "type": "provider_list",
            "value": {
                "model": self.model(model),
                "source": self.source(source),
                "pattern": pattern,
                "order_by": order_by,
                "name_style": name_style,
            },
        }


def _paragraph(text):
    return text if not text or text.lstrip().startswith("<p") else f"<p>{text}</p>"
