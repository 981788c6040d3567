"""Picks table: "Need / Pick / Why", each pick and reason computed from data."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail import blocks

from articles.figures import PICK, Figure
from benchmarks.formatting import format_decimal, format_metric, format_plain
from benchmarks.metrics import get_metric

from .base import DataBlockMixin, model_chooser, once_per_render, source_chooser
from .choosers import BulkSnippetChooserBlock
from .inline_text import caption_block, caption_text

# need key -> (ranking metric, secondary metric shown in the reason)
PICK_KINDS = {
    "fastest": ("output_speed_median", "ttfc_median"),
    "shortest_first_chunk": ("ttfc_median", None),
    "highest_accuracy": ("accuracy_index", None),
    "lowest_e2e_p99": ("e2e_p99", None),
    "highest_task_success": ("task_success", None),
}
PICK_CHOICES = [
    ("fastest", gettext_lazy("Fastest (output speed)")),
    ("shortest_first_chunk", gettext_lazy("Shortest first chunk")),
    ("highest_accuracy", gettext_lazy("Highest accuracy")),
    ("lowest_e2e_p99", gettext_lazy("Lowest end-to-end p99")),
    ("highest_task_success", gettext_lazy("Highest task success")),
]


def need_label(kind):
    return {
        "fastest": _("Fastest"),
        "shortest_first_chunk": _("Shortest first chunk"),
        "highest_accuracy": _("Highest accuracy"),
        "lowest_e2e_p99": _("Lowest end-to-end p99"),
        "highest_task_success": _("Highest task success"),
    }[kind]


def model_label(model):
    if model.is_baseline:
        return _("%(model)s baseline") % {"model": model.name}
    return model.name


def comparison_name(endpoint, data, source):
    """How a reason names the endpoint it compares with: a tier where the provider has several."""
    if endpoint.display_label:  # the endpoint's own name on pages, e.g. "Ollama Pro"
        return endpoint.display_label
    siblings = [e for e in data.endpoints(endpoint.model, source) if e.provider_id == endpoint.provider_id]
    if len(siblings) < 2:
        return endpoint.provider.name
    if endpoint.tier:
        return _("%(provider)s’s %(tier)s tier") % {"provider": endpoint.provider.name, "tier": endpoint.tier}
    return _("%(provider)s’s standard tier") % {"provider": endpoint.provider.name}


class PickRowValue(blocks.StructValue):
    @once_per_render
    def compute(self, data):
        kind = self["need"]
        metric_key, secondary_key = PICK_KINDS[kind]
        metric = get_metric(metric_key)
        model, source = self["model"], self["source"]
        ranked = data.fresh_ranked(model, metric_key, source)
        row = {"need": f"{need_label(kind)} · {model_label(model)}", "pick": None, "reason": "", "sources": [],
               "citations": [], "stale": False}
        if not ranked:
            # Measured, but every figure is past its age: show the last leader, dated and marked
            # stale, rather than "not measured" (it was) or as current (it is not).
            ranked = data.ranked(model, metric_key, source)
            row["stale"] = bool(ranked)
        behind = []
        if not ranked:
            return self._with_figures(row, metric, behind)
        leader = ranked[0]
        row["measured_at"] = leader.snapshot.measured_at
        behind.append(leader)
        row["pick"] = leader.endpoint
        row["measurement"] = leader
        value_text = format_metric(metric, leader.value)
        if kind == "fastest":
            secondary = data.value(leader.endpoint, secondary_key, source)
            if secondary is not None:
                behind.append(secondary)
            reason = _("%(speed)s tokens/s, %(first_chunk)s s first chunk") % {
                "speed": value_text,
                "first_chunk": format_plain(get_metric(secondary_key), secondary.value if secondary else None),
            }
        elif metric.kind == "time":
            reason = _("%(value)s s") % {"value": format_plain(metric, leader.value)}
        else:
            reason = value_text
        other = self["compare_with"]
        if other is not None:
            other_row = data.value(other, metric_key, source)
            if other_row is not None:
                behind.append(other_row)
                name = comparison_name(other, data, source)
                if metric.kind == "percent":
                    points = format_decimal(abs(leader.value - other_row.value), 2)
                    template = (
                        _("%(value)s%%, %(points)s points above %(other)s")
                        if metric.higher_is_better
                        else _("%(value)s%%, %(points)s points below %(other)s")
                    )
                    reason = template % {"value": format_plain(metric, leader.value), "points": points, "other": name}
                else:
                    reason = _("%(value)s, against %(other_value)s on %(other)s") % {
                        "value": reason,
                        "other_value": format_metric(metric, other_row.value)
                        + (" s" if metric.kind == "time" and not metric.cell_suffix else ""),
                        "other": name,
                    }
        row["reason"] = reason
        row["sources"] = [leader.snapshot.source]
        if self.get("cite_price"):
            # The price page of whichever endpoint the data picks: a correction that picks another
            # host moves the citation with it instead of leaving a hard-wired one behind.
            price = data.price(leader.endpoint)
            if price is not None:
                row["sources"].append(price.source)
        row["citations"] = [s for s in self["extra_citations"] if s is not None]
        return self._with_figures(row, metric, behind)

    @staticmethod
    def _with_figures(row, metric, behind):
        pick = row["pick"]
        row["figures"] = [
            Figure(
                row=row["need"], column="", text=pick.label if pick is not None else "—",
                endpoint=pick, metric=metric.key, measurements=tuple(behind[:1]), kind=PICK,
                slot=f"pick:{row['need']}", stale=row["stale"],
            ),
            Figure(
                row=row["need"], column=_("reason"), text=str(row["reason"] or "—"),
                endpoint=pick, metric=metric.key, measurements=tuple(behind), slot=f"reason:{row['need']}",
                stale=row["stale"],
            ),
        ]
        return row


class PickRowBlock(blocks.StructBlock):
    need = blocks.ChoiceBlock(choices=PICK_CHOICES, label=gettext_lazy("need"))
    model = model_chooser()
    source = source_chooser(required=False, help_text=gettext_lazy("Leave empty to use the newest data of any source."))
    compare_with = BulkSnippetChooserBlock(
        "benchmarks.Endpoint",
        required=False,
        label=gettext_lazy("compare with"),
        help_text=gettext_lazy("Optional endpoint the reason compares the pick with."),
    )
    cite_price = blocks.BooleanBlock(
        required=False,
        label=gettext_lazy("also cite the picked endpoint's price page"),
        help_text=gettext_lazy("Follows the data: if another endpoint becomes the pick, its price page is cited."),
    )
    extra_citations = blocks.ListBlock(source_chooser(), label=gettext_lazy("extra citations"), default=[])

    class Meta:
        value_class = PickRowValue
        icon = "pick"
        label = gettext_lazy("Pick")


class PicksTableBlock(DataBlockMixin, blocks.StructBlock):
    offers_download = True  # a "Download CSV" link and a …/data/csv/<block id>/ file
    caption = caption_block(label=gettext_lazy("caption"))
    rows = blocks.ListBlock(PickRowBlock(), label=gettext_lazy("rows"))

    class Meta:
        icon = "list-ul"
        label = gettext_lazy("Picks table")
        template = "articles/blocks/picks_table.html"

    def data_requirements(self, value):
        for row in value["rows"]:
            yield row["model"], row["source"]

    def chosen_citations(self, value):
        """Each row's extra citations, chosen by the editor (the page's list must hold them), whether
        or not the data gives the row a pick today."""
        return [source for row in value["rows"] for source in row["extra_citations"] if source is not None]

    def compute_context(self, value, data):
        return {"rows": [row.compute(data) for row in value["rows"]], "caption": caption_text(value["caption"], data)}

    def figures(self, value, data):
        if self.missing_fields(value):
            return []  # an incomplete draft block prints no figure
        return [figure for row in value["rows"] for figure in row.compute(data)["figures"]]
