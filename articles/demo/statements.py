"""Checked statements for the demo articles: each sentence about the data says what must hold.

Hosts are (provider slug, tier); models and sources are slugs and keys, as in DemoBlocks. A builder
returns the stored element, used inside both halves of a text pair, so the English and the Spanish
sentence carry the same conditions.
"""

import json

from django.utils.html import escape

from articles.statements.conditions import EVERY_OTHER, Claim

SPEED = "output_speed_median"


class DemoStatements:
    def __init__(self, blocks):
        self.b = blocks

    def _host(self, host):
        if host == EVERY_OTHER:
            return EVERY_OTHER
        provider, tier = host if isinstance(host, tuple) else (host, "")
        pk = self.b.provider(provider)
        return f"{pk}:{tier}" if tier else str(pk)

    def _cond(self, kind, models, metric=SPEED, source=None, **extra):
        data = {"k": kind, "metric": metric, "models": [self.b.model(slug) for slug in models]}
        if source:
            data["source"] = self.b.source(source)
        for key, value in extra.items():
            if value is None:
                continue
            data[key] = self._host(value) if key in ("host", "other") else value
        return data

    def __call__(self, words, *conditions):
        claim = Claim.parse(json.dumps(list(conditions)))  # validated as the editor's chooser would
        return f'<a linktype="statement" cond="{escape(claim.serialize())}">{words}</a>'

    # --- the vocabulary ----------------------------------------------------------------------
    def leads(self, host, models, q="all", n=None, metric=SPEED, source=None, neg=False):
        return self._cond("leads", models, metric, source, host=host, q=q, n=n, neg=neg or None)

    def rank(self, host, model, n, metric=SPEED, source=None, neg=False):
        return self._cond("rank", [model], metric, source, host=host, n=n, neg=neg or None)

    def faster(self, host, other, model, metric=SPEED, factor=None, source=None, slower=False):
        return self._cond("compare", [model], metric, source, host=host, other=other,
                          rel="slower" if slower else "faster", factor=str(factor) if factor else None)

    def cheaper(self, host, other, model, metric="price_output"):
        return self._cond("compare", [model], metric, None, host=host, other=other, rel="cheaper")

    def count(self, model, rel, n, metric=SPEED, source=None):
        return self._cond("count", [model], metric, source, rel=rel, n=n)

    def measured(self, host, model, metric=SPEED, source=None, neg=False):
        return self._cond("measured", [model], metric, source, host=host, neg=neg or None)

    def value(self, host, model, rel, threshold, metric=SPEED, source=None):
        """The host's figure is above / below a threshold ("600 requests": above 599 and below 601)."""
        return self._cond("value", [model], metric, source, host=host, rel=rel, t=str(threshold))
