"""The article's Open Graph image: a 1200×630 PNG of its lead chart, drawn from the figures the page prints.

The lead chart is the body's first chart of any kind (a bar chart, a trend chart, a price-vs-speed
scatter) or, without one, its first provider table (its sort metric). Bars, lines, points, names and
values come from the block's own compute() through the page's PageData, so the image shows exactly the
names, numbers (formatted in the page language), bar lengths, lines and points of the page (a trend or
a scatter is redrawn from its SVG's geometry: articles/charts/og_plot.py); the footer names the sources
and the newest snapshot date, as the provenance control does.

The PNG is stored with the article's rendering (articles/data_route_copies.py) and served at
…/<slug>/og.png (articles/data_routes.py); the head links it from the cached, pre-rendered part
(templates/articles/includes/article_head.html), so the address is absolute from the Site's root URL.

Pillow (a dependency of Wagtail, from the package index alone) draws it with its default font; the
Spanish accents, thin spaces and minus signs are drawn from ASCII pieces (articles/charts/png_text.py).
"""

import io
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

from articles.charts import og_plot
from articles.charts.png_text import fit, text_width, write

WIDTH, HEIGHT = 1200, 630
PATH = "og.png"  # after the page's URL; config/urls.py routes it (a dotted name Wagtail's own pattern refuses)
CHART_TYPES = ("bar_chart", "trend_chart", "price_speed_scatter")  # the first of these in the body leads
TABLE_TYPES = ("provider_table",)  # without a chart
LEAD_TYPES = CHART_TYPES + TABLE_TYPES
PAD = 56
MAX_ROWS = 8  # more do not fit legibly; the image then says how many more the page lists
NAME_WIDTH, VALUE_WIDTH = 300, 170
BAR_X = PAD + NAME_WIDTH + 10
BAR_MAX = WIDTH - PAD - VALUE_WIDTH - BAR_X
ROWS_TOP, ROWS_BOTTOM = 172, 530
INK, MUTED, BAR, STALE_BAR, RULE = "#1a202c", "#4a5568", "#2b6cb0", "#a0aec0", "#cbd5e0"


@dataclass
class Bar:
    name: str
    text: str
    share: Decimal  # the bar's length as a fraction of the longest, as the page draws it
    stale: bool
    measurement: object


def has_image(page):
    """Whether the article in the active language has a lead chart; reads only the stored body (no query)."""
    return any(item["type"] in LEAD_TYPES for item in page.body.raw_data)


def lead_block(page):
    """The body's first complete chart, else its first complete table: a draft's block still being
    filled in has no figures."""
    for types in (CHART_TYPES, TABLE_TYPES):
        for child in page.body:
            if child.block_type in types and not child.block.missing_fields(child.value):
                return child
    return None


def chart_bars(child, data):
    """(caption, [Bar]) of a bar chart or a provider table, from the block's computed figures."""
    if child.block_type == "bar_chart":
        chart = child.value.compute(data)
        bars = [Bar(bar["name"], bar["text"], Decimal(bar["percent"]) / 100, bar["stale"], bar["measurement"])
                for bar in chart["bars"]]
        return chart["caption"], bars
    return table_bars(child.value, data)


def table_bars(value, data):
    from benchmarks.formatting import format_metric
    from benchmarks.metrics import get_metric

    table = value.compute(data)
    metric = get_metric(value["sort_metric"])
    found = []
    for row in table["rows"]:
        cell = next((cell for cell in row["cells"] if "measurement" in cell and cell["figure"].metric == metric.key),
                    None)
        if cell is not None:  # the sort column as the table prints it
            found.append((row["name"], cell["text"], cell["measurement"], cell["stale"]))
        else:  # sorted by a metric it does not show: formatted as a table cell would be
            measurement = data.value(row["endpoint"], metric.key, value["source"])
            text = format_metric(metric, measurement.value if measurement else None)
            found.append((row["name"], text, measurement, data.is_stale(measurement)))
    # Scaled as a bar chart is: the longest bar is the largest value.
    scale = max((m.value for _n, _t, m, _s in found if m is not None), default=Decimal(0))
    bars = [Bar(name, text, (m.value / scale) if m is not None and scale else Decimal(0), stale, m)
            for name, text, m, stale in found]
    return f"{metric.label} · {table['caption']}", bars


def chart_plot(child, data):
    """(caption, plot, measurements, sources) of a trend chart or a scatter, from the block's computed chart."""
    chart = child.value.compute(data)
    if child.block_type == "trend_chart":
        rows = [point["row"] for point in chart["table"]]
        return chart["caption"], og_plot.trend(chart), rows, [row.snapshot.source for row in rows]
    figures = [figure for point in chart["points"] for figure in point["figures"]]
    rows = [row for figure in figures for row in figure.measurements]
    return chart["caption"], og_plot.scatter(chart), rows, [source for f in figures for source in f.sources]


def chart(page):
    """What the image shows, or None when the article has no chart: {title, caption, bars, plot, footer}
    (`plot`, for a trend chart or a scatter, instead of bars)."""
    child = lead_block(page)
    if child is None:
        return None
    plot = None
    if child.block_type in ("trend_chart", "price_speed_scatter"):
        caption, plot, rows, sources = chart_plot(child, page.page_data)
        bars = []
    else:
        caption, bars = chart_bars(child, page.page_data)
        rows = [bar.measurement for bar in bars if bar.measurement is not None]
        sources = [row.snapshot.source for row in rows]
    # The publisher ("Artificial Analysis"): the source's full name adds its title, in English, and
    # would crowd the date out of the footer.
    sources = list(dict.fromkeys(source.publisher for source in sources))
    footer = ""
    if rows:
        from articles.templatetags.article_tags import (
            _date_in_words,  # the date as a figure's trail prints it
        )

        footer = _("Source: %(sources)s · measured %(date)s") % {
            "sources": ", ".join(sources), "date": _date_in_words(max(row.snapshot.measured_at for row in rows)),
        }
    return {"title": page.title, "caption": caption, "bars": bars, "plot": plot, "footer": footer}


def meta(page):
    """The head's og:image facts ({url, alt, width, height}), or None for an article without a chart."""
    if not has_image(page):
        return None
    from .addresses import page_address

    url = page_address(page)  # the reader's origin (articles/addresses.py)
    if not url:
        return None
    drawn = chart(page)
    if drawn is None:
        return None
    url = f"{url.rstrip('/')}/{PATH}?v={version(drawn)}"
    return {"url": url, "alt": drawn["caption"], "width": WIDTH, "height": HEIGHT}


def version(drawn):
    """A short digest of what the image shows. Social networks keep an image by its URL for weeks:
    a new figure makes a new URL, so a shared link shows today's bars. The route ignores the value
    (an undeclared parameter, config/query_contract.py), so an old URL still gets the current image."""
    import hashlib

    shown = [drawn["title"], drawn["caption"], drawn["footer"]]
    shown += [f"{bar.name}\t{bar.text}\t{bar.share}\t{bar.stale}" for bar in drawn["bars"]]
    if drawn.get("plot"):
        shown += og_plot.signature(drawn["plot"])
    return hashlib.sha256("\n".join(str(part) for part in shown).encode()).hexdigest()[:12]


def png(page):
    """The PNG bytes of the article's lead chart in the active language, or None without one."""
    drawn = chart(page)
    return None if drawn is None else draw(drawn)


def draw(drawn):
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    canvas = ImageDraw.Draw(image)
    title, caption, row_font, footer = (ImageFont.load_default(size=size) for size in (44, 28, 26, 22))
    write(canvas, (PAD, 44), fit(drawn["title"], title, WIDTH - 2 * PAD), title, INK)
    write(canvas, (PAD, 112), fit(drawn["caption"], caption, WIDTH - 2 * PAD), caption, MUTED)
    plot = drawn.get("plot")
    if plot is not None:
        empty = not (plot.get("series") or plot.get("points"))
        if not empty:
            og_plot.draw(canvas, plot, (ImageFont.load_default(size=20), row_font))
    else:
        draw_bars(canvas, drawn["bars"], row_font, footer)
        empty = not drawn["bars"]
    if empty:
        write(canvas, (PAD, ROWS_TOP + 20), _("No published measurements for this model yet."), row_font, MUTED)
    canvas.line([PAD, HEIGHT - 74, WIDTH - PAD, HEIGHT - 74], fill=RULE, width=2)
    site = _("LLM API Benchmarks")
    site_width = text_width(site, footer)
    write(canvas, (PAD, HEIGHT - 50), fit(drawn["footer"], footer, WIDTH - 3 * PAD - site_width), footer, MUTED)
    write(canvas, (WIDTH - PAD - site_width, HEIGHT - 50), site, footer, MUTED)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def draw_bars(canvas, bars, row_font, footer):
    shown = bars[:MAX_ROWS]
    height = min(60, (ROWS_BOTTOM - ROWS_TOP) // max(len(shown), 1))
    thickness = max(8, int(height * 0.62))
    for index, bar in enumerate(shown):
        top = ROWS_TOP + index * height
        middle = top + height // 2
        write(canvas, (PAD, middle), fit(bar.name, row_font, NAME_WIDTH), row_font, INK, anchor="lm")
        length = bar_length(bar.share)
        if length:
            canvas.rectangle([BAR_X, middle - thickness // 2, BAR_X + length - 1, middle + thickness // 2 - 1],
                             fill=STALE_BAR if bar.stale else BAR)
        write(canvas, (BAR_X + length + 12, middle), bar.text, row_font, INK, anchor="lm")
    if len(bars) > len(shown):
        more = _("+%(n)s more on the page") % {"n": len(bars) - len(shown)}
        write(canvas, (BAR_X, ROWS_TOP + len(shown) * height + 4), more, footer, MUTED)


def bar_length(share):
    """Pixels for a bar of `share` (0–1) of the longest; a non-zero value keeps a visible sliver."""
    if share <= 0:
        return 0
    return max(2, round(BAR_MAX * float(min(share, Decimal(1)))))
