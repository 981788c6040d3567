"""The figures a page prints, as its blocks declare them.

Every block that reads benchmark data answers two questions explicitly:

- `data_requirements(value)`: which (model, source) pairs it depends on (the page loads them in bulk,
  and a refresh of one of them affects the page);
- `figures(value, page_data)`: each figure it prints, with the text shown, the endpoint, the metric
  or price, the rows behind it (several for an average) and its place on the page (row, column).

The review of changed figures, the `…/data/` page and the provenance control all read these
declarations; nothing guesses what a block shows from the names of its template variables.
"""

from dataclasses import dataclass, field
from functools import cache

from django.utils.translation import gettext as _

VALUE, PICK, RANKING = "value", "pick", "ranking"
PRICE = "price"


@dataclass(frozen=True, eq=False)
class Figure:
    row: str  # the row as a reader names it: a provider, a need, a card
    column: str  # the column: a metric's label, "price", "pick"
    text: str  # exactly what the page prints
    endpoint: object = None
    metric: str = ""  # metric key, PRICE, or "" for a pick
    measurements: tuple = ()  # the rows behind the value: one, several for an average, none for a dash
    price: object = None
    kind: str = VALUE
    # Figures that share a `ranking` name form an ordered list on the page (table rows, bars, cards);
    # `position` is the figure's place in it. The review reports a new order or a new first place.
    ranking: str = ""
    position: int | None = None
    window_hours: int = 0  # >0: the value is an average of `measurements` over this window
    stale: bool = False
    # A figure whose place is fixed whatever endpoint fills it (a pick, a "best of" reference) names
    # that place here; otherwise a figure is identified by its endpoint, metric, row and column.
    slot: str = ""
    extra: dict = field(default_factory=dict)
    # The number the text prints, at the precision printed, and its unit: what a download offers as a
    # machine-readable column next to `text`. None where the page prints no single number (a pick, a
    # sentence, a price pair: the download reads the pair from `price`).
    value: object = None
    unit: str = ""
    # The unrounded number `value` prints, where it is not the mean of `measurements` (a ratio, a
    # count, a price): what a download gives as "full precision". None: read from the rows behind.
    exact: object = None

    @property
    def key(self):
        """Identifies the figure across two states of the data, within one block."""
        if self.slot:
            return (self.kind, self.slot)
        endpoint = self.endpoint.pk if self.endpoint is not None else None
        return (self.kind, self.ranking, endpoint, self.metric, self.row, self.column)

    @property
    def snapshots(self):
        found = {}
        for row in self.measurements:
            found.setdefault(row.snapshot_id, row.snapshot)
        if self.price is not None and self.price.snapshot_id:
            found.setdefault(self.price.snapshot_id, self.price.snapshot)
        return list(found.values())

    @property
    def sources(self):
        found = {}
        for row in self.measurements:
            found.setdefault(row.snapshot.source_id, row.snapshot.source)
        if self.price is not None:
            found.setdefault(self.price.source_id, self.price.source)
        return list(found.values())

    @property
    def is_average(self):
        return self.window_hours > 0

    @property
    def label(self):
        return f"{self.row} · {self.column}" if self.column else self.row


def measured_figure(endpoint, metric, text, measurement, *, row, ranking="", position=None, stale=False):
    """A figure printed from one measurement (or a dash where `measurement` is None)."""
    from benchmarks.formatting import printed_number

    return Figure(
        row=row,
        column=str(metric.label),
        text=str(text),
        endpoint=endpoint,
        metric=metric.key,
        measurements=(measurement,) if measurement is not None else (),
        ranking=ranking,
        position=position,
        stale=stale,
        value=printed_number(metric, measurement.value) if measurement is not None else None,
        unit=str(metric.unit),
    )


def price_figure(endpoint, text, price, *, row, stale=False):
    return Figure(
        row=row,
        column=_("price in / out per 1M"),
        text=str(text),
        endpoint=endpoint,
        metric=PRICE,
        price=price,
        stale=stale,
    )


@dataclass(frozen=True)
class PageFigure:
    """A figure with the block it sits in."""

    block_index: int
    block_label: str
    figure: Figure

    @property
    def place(self):
        return _("%(place)s (block %(n)s)") % {"place": self.block_label, "n": self.block_index + 1}


def block_label(child):
    label = str(child.block.label or child.block_type)
    model = child.value.get("model") if hasattr(child.value, "get") else None
    name = getattr(model, "name", None)
    return f"{label} · {name}" if name else label


def reads_data(block):
    return hasattr(block, "figures") and hasattr(block, "data_requirements")


@cache
def _text_block():
    """A paragraph block, whose declaration turns one rich text's data references into figures."""
    from articles.blocks.paragraph import DataParagraphBlock

    return DataParagraphBlock()


def block_figures(child, data):
    """Every figure one body child prints: those its block declares, then the data references in its
    rich texts that the declaration leaves out (a provider card's "ranks 2nd", a note's figure).

    A reference prints a live figure wherever its rich text sits; the review, the downloads and the
    data page all read this list, so a reference outside a paragraph is missed by none of them. Each
    text's references are declared as a paragraph of that text declares them."""
    from articles.datarefs.refs import rich_texts

    missing = getattr(child.block, "missing_fields", None)
    if missing is not None and missing(child.value):
        return []  # an incomplete draft block prints neither its figures nor its texts
    found = list(child.block.figures(child.value, data)) if reads_data(child.block) else []
    taken = {figure.slot for figure in found if figure.slot}
    for text in rich_texts(child.value):
        for figure in _text_block().figures(text, data):
            if figure.slot not in taken:
                taken.add(figure.slot)
                found.append(figure)
    return found


def page_figures(blocks, data):
    """[PageFigure] for a page body (bound stream children), in page order, in the active language."""
    found = []
    for index, child in enumerate(blocks):
        figures = block_figures(child, data)
        if not figures:
            continue
        label = block_label(child)
        found += [PageFigure(index, label, figure) for figure in figures]
    return found


def block_requirements(blocks):
    """{model id: model}, {source id: source} every data block of a body depends on."""
    models, sources = {}, {}
    for child in blocks:
        if not reads_data(child.block):
            continue
        for model, source in child.block.data_requirements(child.value):
            if model is not None:
                models[model.pk] = model
            if source is not None:
                sources[source.pk] = source
    return models, sources
