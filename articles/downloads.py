"""An article's figures as files a reader downloads (CSV, JSON), as Our World in Data offers with charts.

Read only from the blocks' own declarations (articles.figures): each Figure states the text printed,
the number it prints (`value`, `unit`), the rows behind it, their snapshots and sources. One file row
per number: a price pair ("$2.10 / $6.60") becomes an input and an output row read from its Price; a
figure that prints no single number (a pick, a sentence) keeps an empty value and its printed text.

`value` is the number as the page prints it (an average rounded as shown), with a dot for decimals
and no grouping in every language; text columns (labels, units, headers) follow the page language.
"""

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.http import HttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from benchmarks.csv_export import csv_text
from benchmarks.formatting import plain_number, price_decimals, quantize
from benchmarks.metrics import METRICS

from .figures import PRICE, PageFigure, block_figures, block_label


def offers_download(block):
    return getattr(block, "offers_download", False)


@dataclass
class Row:
    """One number (or one printed text without a number) a block shows, with its provenance."""

    block: str
    block_id: str
    figure: str
    endpoint: object
    metric: str  # key
    metric_label: str
    value: object  # Decimal as printed, or None
    exact: object  # the same number at the precision stored (an average unrounded), or None
    unit: str
    text: str
    dates: list = field(default_factory=list)  # datetimes (snapshots) or dates (a price's effective date)
    snapshot_ids: list = field(default_factory=list)
    sources: list = field(default_factory=list)
    window_hours: int = 0
    measurements: int = 0
    stale: bool = False

    @property
    def based_on(self):
        if not self.window_hours:
            return ""
        return ngettext(
            "average of %(n)s value over %(hours)s h", "average of %(n)s values over %(hours)s h", self.measurements
        ) % {"n": self.measurements, "hours": self.window_hours}


def moment_text(moment):
    if isinstance(moment, datetime):
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return moment.isoformat()


def _price_rows(item, block_id, figure):
    price = figure.price
    for label, amount in ((_("input price per 1M tokens"), price.input_per_m),
                          (_("output price per 1M tokens"), price.output_per_m)):
        yield Row(
            block=item.place, block_id=block_id, figure=figure.label, endpoint=figure.endpoint, metric=PRICE,
            metric_label=label, value=quantize(amount, price_decimals(amount)), exact=amount, unit=price.currency,
            text=figure.text, dates=[price.effective_date],
            snapshot_ids=[price.snapshot_id] if price.snapshot_id else [], sources=[price.source],
            stale=figure.stale,
        )


def exact_value(figure):
    """What the printed number rounds: the figure's own unrounded number (a ratio, a count, a price), the
    stored value, or the plain mean of an average's values."""
    if figure.value is None:
        return None
    if figure.exact is not None:
        return figure.exact
    if figure.price is not None and not figure.measurements:
        return price_side(figure)[1]
    if not figure.measurements:
        return None
    values = [row.value for row in figure.measurements]
    return sum(values) / len(values)


def price_side(figure):
    """(label, amount) of the side of its price a one-number price figure prints (the scatter's "price
    per 1M output tokens"): the side that rounds to the printed number, the output side when both do."""
    price = figure.price
    sides = [(_("output price per 1M tokens"), price.output_per_m), (_("input price per 1M tokens"), price.input_per_m)]
    for label, amount in sides:
        if amount is not None and quantize(amount, price_decimals(amount)) == figure.value:
            return label, amount
    return sides[0]


def metric_label(figure):
    metric = METRICS.get(figure.metric)
    if metric is not None:
        return str(metric.label)
    if figure.metric == PRICE and figure.price is not None and figure.value is not None:
        return str(figure.column) or price_side(figure)[0]
    return ""


def figure_rows(item, block_id):
    """[Row] for one PageFigure."""
    figure = item.figure
    if figure.value is None and figure.metric == PRICE and figure.price is not None:
        return list(_price_rows(item, block_id, figure))
    snapshots = sorted(figure.snapshots, key=lambda snapshot: (snapshot.measured_at, snapshot.pk))
    return [
        Row(
            block=item.place, block_id=block_id, figure=figure.label, endpoint=figure.endpoint,
            metric=figure.metric, metric_label=metric_label(figure), value=figure.value,
            exact=exact_value(figure),
            unit=figure.unit if figure.value is not None else "", text=figure.text,
            dates=[snapshot.measured_at for snapshot in snapshots],
            snapshot_ids=[snapshot.pk for snapshot in snapshots], sources=figure.sources,
            window_hours=figure.window_hours, measurements=len(figure.measurements), stale=figure.stale,
        )
    ]


def body_rows(blocks, data, only=None):
    """[Row] for every figure of a body (bound stream children), or only of the block with id `only`:
    the figures the page prints, data references in any of a block's texts included (articles.figures)."""
    rows = []
    for index, child in enumerate(blocks):
        if only is not None and child.id != only:
            continue
        figures = block_figures(child, data)
        if not figures:
            continue
        label = block_label(child)
        for figure in figures:
            rows += figure_rows(PageFigure(index, label, figure), child.id or "")
    return rows


def find_block(blocks, block_id):
    """The body child with this id that offers a download, or None."""
    return next((child for child in blocks if child.id == block_id and offers_download(child.block)), None)


def block_csv(body, data, child):
    """The CSV text of one block's file. A block with its own columns (`csv_table`: a trend chart's
    date, endpoint, value, snapshot and correction per plotted point) writes those; others their figures."""
    own = getattr(child.block, "csv_table", None)
    if own is not None and not child.block.missing_fields(child.value):
        columns, cells = own(child.value, data)
        return csv_text(columns, cells)
    return as_csv(body_rows(body, data, only=child.id))


def headers():
    return [
        _("block"), _("figure"), _("endpoint"), _("metric"), _("value"), _("full precision"), _("unit"),
        _("as printed"), _("snapshot date"), _("source"), _("source URL"), _("based on"), _("stale"),
        _("demo data"),
    ]


def is_demo(row):
    """A figure from a source that ships with the site as an example (the page says so in its banner; a
    file read on its own must say so on each row)."""
    return any(getattr(source, "is_demo", False) for source in row.sources)


def csv_cells(row):
    return [
        row.block, row.figure, str(row.endpoint) if row.endpoint is not None else "", row.metric_label,
        row.value, plain_number(row.exact), row.unit, row.text,
        "; ".join(moment_text(moment) for moment in row.dates),
        "; ".join(str(source) for source in row.sources), "; ".join(source.url for source in row.sources),
        row.based_on, _("yes") if row.stale else "", _("yes") if is_demo(row) else "",
    ]


def as_csv(rows):
    # Every text cell (provider and source names, labels, printed text) is escaped against formulas there.
    return csv_text(headers(), (csv_cells(row) for row in rows))


def row_json(row):
    endpoint = row.endpoint
    return {
        "block": row.block,
        "block_id": row.block_id,
        "figure": row.figure,
        "endpoint": None if endpoint is None else {
            "id": endpoint.pk, "name": str(endpoint), "model": endpoint.model.name, "provider": endpoint.provider.name,
            "tier": endpoint.tier,
        },
        "metric": row.metric,
        "metric_label": row.metric_label,
        # A JSON number: printed values have few digits, so the float's shortest form is the printed one.
        "value": None if row.value is None else float(row.value),
        # As a string: a float would round what the column exists to keep.
        "full_precision": plain_number(row.exact) or None,
        "unit": row.unit,
        "text": row.text,
        "snapshot_dates": [moment_text(moment) for moment in row.dates],
        "snapshot_ids": row.snapshot_ids,
        "sources": [{"name": str(source), "url": source.url} for source in row.sources],
        "window_hours": row.window_hours or None,
        "based_on": row.based_on,
        "stale": row.stale,
        "demo_data": is_demo(row),
    }


# Where a stored JSON (articles/data_route_copies.py) names the article: each request puts its own address
# there (json_with_url). ".invalid" is reserved (RFC 2606): no real address is ever this one.
URL_SLOT = "https://article.invalid/"


def json_with_url(text, url):
    """A document as_json wrote for URL_SLOT, naming `url` instead. Only the top-level key matches: a
    newline can only occur escaped inside a JSON string."""
    return text.replace(f'\n "url": {json.dumps(URL_SLOT)},', f'\n "url": {json.dumps(url, ensure_ascii=False)},', 1)


def as_json(rows, page, url):
    document = {
        "article": page.title,
        "url": url,
        "language": (get_language() or "en")[:2],
        # The credit lines the sources require, as the article prints them (e.g. Artificial Analysis).
        "attributions": page.attributions(),
        # Fixed examples that ship with the site, not live measurements (the article's "Demo data" banner).
        "demo_data": any(is_demo(row) for row in rows),
        "figures": [row_json(row) for row in rows],
    }
    return json.dumps(document, ensure_ascii=False, indent=1)


def file_name(page, suffix, extension):
    return f"{page.slug}-{slugify(suffix)}.{extension}"


def block_file_suffix(child):
    return f"{block_label(child)}-{(child.id or '')[:8]}"


def download_response(content, content_type, filename, as_attachment=True):
    response = HttpResponse(content, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(as_attachment, filename)
    # The article is the page to find; its figures' files would only repeat it in search results.
    response["X-Robots-Tag"] = "noindex"
    return response


def csv_response(rows, filename):
    return download_response(as_csv(rows), "text/csv", filename)


def json_response(rows, page, url, filename):
    return download_response(as_json(rows, page, url), "application/json", filename, as_attachment=False)
