"""The lead chart's plot on the Open Graph PNG (articles/og_image.py) when it is a trend chart or a
price-vs-speed scatter.

Both come from the block's computed chart, the one the page's SVG prints (compute through the page's
PageData): `trend()` and `scatter()` keep its points at their places in the SVG's plot box, and `draw()`
maps that box onto the image's plot area. The image is the page's picture redrawn at 1200×630, with
the same ticks, lines, markers and names, not a second computation that could disagree with it.
"""

from . import svg
from .png_text import fit, text_width, write

# The plot area in the PNG: tick labels on the left, names at the lines' ends on the right, dates below.
LEFT, RIGHT, TOP, BOTTOM = 170, 900, 178, 500
NAME_X = RIGHT + 16
GRID, AXIS, TICK_TEXT = "#e2e8f0", "#718096", "#4a5568"
FRONTIER, OFF_FRONTIER = "#0072b2", "#555555"
NAME_GAP = 28  # px between two names stacked at the right edge


def _number(text):
    return float(text)  # the SVG's coordinates, printed with a dot in every language (svg.num)


def trend(chart):
    """What the image draws of a trend chart's computed figures (articles/blocks/trend_chart.py)."""
    return {
        "kind": "trend", "box": chart["box"],
        "y_ticks": [(_number(t["y"]), t["label"]) for t in chart["y_ticks"]],
        "x_ticks": [(_number(t["x"]), t["label"]) for t in chart["x_ticks"]],
        "series": [{"name": line["name"], "colour": line["colour"],
                    "points": [(p["cx"], p["cy"], p["corrected"], bool(p["changes"])) for p in line["points"]]}
                   for line in chart["series"]],
    }


def scatter(chart):
    """What the image draws of a price-vs-speed chart's computed figures (articles/blocks/scatter.py)."""
    frontier = [tuple(_number(n) for n in pair.split(",")) for pair in chart["frontier_line"].split()]
    return {
        "kind": "scatter", "box": chart["box"],
        "y_ticks": [(_number(t["y"]), t["label"]) for t in chart["y_ticks"]],
        "x_ticks": [(_number(t["x"]), t["label"]) for t in chart["x_ticks"]],
        "points": [(_number(p["at"]["x"]), _number(p["at"]["y"]), p["frontier"], p["name"]) for p in chart["points"]],
        "frontier": frontier,
    }


def signature(plot):
    """Lines of text that change when the picture does (the image's address digest, og_image.version)."""
    lines = [f"{plot['kind']}\t{plot['y_ticks']}\t{plot['x_ticks']}"]
    for line in plot.get("series", ()):
        lines.append(f"{line['name']}\t{line['colour']}\t" + " ".join(
            f"{x:.1f},{y:.1f},{int(c)},{int(m)}" for x, y, c, m in line["points"]))
    lines += [f"{name}\t{x:.1f},{y:.1f},{int(on)}" for x, y, on, name in plot.get("points", ())]
    return lines


def mapper(box):
    """SVG plot coordinates → image pixels: the SVG's plot box stretched onto LEFT..RIGHT, TOP..BOTTOM."""
    x_scale = svg.Scale(box["left"], box["right"], LEFT, RIGHT)
    y_scale = svg.Scale(box["top"], box["bottom"], TOP, BOTTOM)
    return lambda x, y: (x_scale(x), y_scale(y))


def draw(canvas, plot, fonts):
    """Draw `plot` (from trend() or scatter()) onto the image's canvas; `fonts`: (tick, name) fonts."""
    at = mapper(plot["box"])
    tick_font, name_font = fonts
    axes(canvas, plot, at, tick_font)
    if plot["kind"] == "trend":
        lines(canvas, plot, at, name_font)
    else:
        points(canvas, plot, at, name_font)


def axes(canvas, plot, at, font):
    for y, label in plot["y_ticks"]:
        py = at(plot["box"]["left"], y)[1]
        canvas.line([LEFT, py, RIGHT, py], fill=GRID, width=2)
        write(canvas, (LEFT - 12 - text_width(label, font), py), label, font, TICK_TEXT, anchor="lm")
    canvas.line([LEFT, BOTTOM, RIGHT, BOTTOM], fill=AXIS, width=2)
    last_end = None
    for x, label in plot["x_ticks"]:
        px = at(x, plot["box"]["bottom"])[0]
        canvas.line([px, BOTTOM, px, BOTTOM + 8], fill=AXIS, width=2)
        width = text_width(label, font)
        left = px - width / 2
        if last_end is not None and left < last_end + 10:
            continue  # the image's ticks are larger than the page's: skip one that would touch the last
        write(canvas, (left, BOTTOM + 12), label, font, TICK_TEXT)
        last_end = left + width


def lines(canvas, plot, at, font):
    ends = []
    for line in plot["series"]:
        drawn = [at(x, y) for x, y, _corrected, _changed in line["points"]]
        if len(drawn) > 1:
            canvas.line(drawn, fill=line["colour"], width=4, joint="curve")
        for (px, py), (_x, _y, corrected, changed) in zip(drawn, line["points"], strict=True):
            if corrected:
                canvas.polygon([(px, py - 8), (px + 8, py), (px, py + 8), (px - 8, py)], fill="white",
                               outline=line["colour"], width=3)
            else:
                canvas.ellipse([px - 6, py - 6, px + 6, py + 6], fill=line["colour"])
            if changed:
                canvas.polygon([(px - 8, py - 24), (px + 8, py - 24), (px, py - 11)], fill=line["colour"])
        ends.append(drawn[-1][1])
    for line, y in zip(plot["series"], svg.spread(ends, gap=NAME_GAP, lo=TOP, hi=BOTTOM), strict=True):
        write(canvas, (NAME_X, y), fit(line["name"], font, 1200 - 40 - NAME_X), font, line["colour"], anchor="lm")


def dashed(canvas, path, fill, width, dash=14, gap=8):
    """A dashed polyline (Pillow draws only solid ones), as the page's frontier is drawn."""
    for (x1, y1), (x2, y2) in zip(path, path[1:], strict=False):
        length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
        step = 0.0
        while step < length:
            end = min(step + dash, length)
            canvas.line([(x1 + (x2 - x1) * step / length, y1 + (y2 - y1) * step / length),
                         (x1 + (x2 - x1) * end / length, y1 + (y2 - y1) * end / length)], fill=fill, width=width)
            step = end + gap


def points(canvas, plot, at, font):
    dashed(canvas, [at(x, y) for x, y in plot["frontier"]], FRONTIER, 4)
    for x, y, on_frontier, _name in plot["points"]:
        px, py = at(x, y)
        radius = 10 if on_frontier else 8
        canvas.ellipse([px - radius, py - radius, px + radius, py + radius],
                       fill=FRONTIER if on_frontier else "white", outline=FRONTIER if on_frontier else OFF_FRONTIER,
                       width=3)
    for x, y, on_frontier, name in plot["points"]:
        if on_frontier:
            px, py = at(x, y)
            write(canvas, (px + 14, py - 18), fit(name, font, 1200 - 40 - px - 14), font, FRONTIER, anchor="lm")
