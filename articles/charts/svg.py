"""Geometry shared by the server-drawn SVG charts (trend lines, price vs speed).

Charts are drawn on the server, so a reader without JavaScript (or a crawler, or a copy stored by
articles/prerender.py) sees the same picture; the numbers come from the blocks, which format them
as the page prints them. Only presentation attributes are used (no style attributes): the public
pages' Content-Security-Policy is `style-src 'self'`.
"""

import math
from dataclasses import dataclass
from decimal import Decimal

# The drawing's own coordinate system (viewBox); the SVG scales to the column's width.
WIDTH, HEIGHT = 720, 340
# Room on the right for the endpoint names at the ends of the lines, below for the date ticks.
LEFT, RIGHT, TOP, BOTTOM = 64, 170, 16, 48
# Distinguishable in print and for the common colour-vision deficiencies (Okabe–Ito, darkened for
# contrast against white); a ninth series reuses the first colour, its label still names it.
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#a66f00", "#56b4e9", "#000000", "#7a5195")
LABEL_GAP = 14  # px between two endpoint labels stacked at the right edge


def colour(index):
    return PALETTE[index % len(PALETTE)]


@dataclass(frozen=True)
class Scale:
    """Linear map from data values (lo..hi) to drawing coordinates (start..end)."""

    lo: float
    hi: float
    start: float
    end: float

    def __call__(self, value):
        if self.hi == self.lo:
            return (self.start + self.end) / 2
        return self.start + (float(value) - self.lo) * (self.end - self.start) / (self.hi - self.lo)


def nice_step(span, count):
    """A step of 1, 2 or 5 × 10^k that divides `span` into at most about `count` intervals."""
    raw = float(span) / max(count, 1)
    exponent = math.floor(math.log10(raw))
    for mantissa in (1, 2, 5, 10):
        if mantissa * 10.0**exponent >= raw:
            return Decimal(mantissa).scaleb(exponent)
    return Decimal(10).scaleb(exponent)  # not reached: 10 × 10^k ≥ raw by definition of k


def nice_ticks(lo, hi, count=5, include_zero=False):
    """Round tick values from at or below `lo` to at or above `hi` (Decimals, so they format like figures)."""
    lo, hi = Decimal(lo), Decimal(hi)
    if include_zero:
        lo, hi = min(lo, Decimal(0)), max(hi, Decimal(0))
    if hi == lo:  # one value, or a flat line: a band around it rather than a zero-height axis
        pad = abs(lo) / 10 or Decimal(1)
        lo, hi = (lo if include_zero and lo == 0 else lo - pad), hi + pad
    step = nice_step(hi - lo, count)
    first = (lo / step).to_integral_value(rounding="ROUND_FLOOR") * step
    ticks = [first]
    while ticks[-1] < hi:
        ticks.append(ticks[-1] + step)
    return [tick.normalize() if tick else Decimal(0) for tick in ticks]


def spread(positions, gap=LABEL_GAP, lo=TOP, hi=HEIGHT - BOTTOM):
    """Label positions moved apart by at least `gap`, kept within lo..hi, in the order given.

    Lines often end close together (two tiers of one provider); their names at the right edge would
    print over each other."""
    order = sorted(range(len(positions)), key=lambda i: positions[i])
    placed = {}
    previous = None
    for i in order:
        y = max(positions[i], lo) if previous is None else max(positions[i], previous + gap)
        placed[i] = previous = y
    overflow = (previous - hi) if previous is not None else 0
    if overflow > 0:  # pushed below the plot: shift the stack up, never above the top
        for i in order:
            placed[i] = max(placed[i] - overflow, lo)
    return [placed[i] for i in range(len(positions))]


def points_attr(points):
    """The `points` attribute of a <polyline>: "x,y x,y" at a tenth of a unit."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def num(value):
    """A coordinate as SVG reads it: a dot for decimals in every language (templates would localize it)."""
    return f"{value:.1f}"


def plot_box():
    """The plot area and the places of the axis texts, as attribute strings."""
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    return {"left": LEFT, "right": right, "top": TOP, "bottom": bottom, "width": WIDTH, "height": HEIGHT,
            "tick_x": LEFT - 6, "tick_end": bottom + 5, "date_y": bottom + 20, "label_x": right + 8,
            "unit_y": TOP - 4, "axis_title_y": HEIGHT - 6, "middle_x": num((LEFT + right) / 2)}


def diamond(cx, cy, size=9):
    """Attributes of a <rect> drawn as a diamond centred on (cx, cy): a marker unlike the round points."""
    half = size / 2
    return {"x": num(cx - half), "y": num(cy - half), "size": size,
            "transform": f"rotate(45 {num(cx)} {num(cy)})"}
