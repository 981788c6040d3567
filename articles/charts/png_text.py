"""Text on the Open Graph PNGs (articles/og_image.py, articles/charts/og_plot.py) with Pillow's default font.

That font (ImageFont.load_default) covers ASCII and a few signs only: the Spanish accents, the page's
thin spaces and minus signs are drawn from ASCII pieces (_pieces) rather than as boxes.
"""

import unicodedata

from PIL import Image, ImageDraw

SPACES = {" ": 1.0, "\u00a0": 1.0, "\u2007": 1.0, "\u202f": 0.5, "\u2009": 0.5}  # share of a space
SUBSTITUTES = {"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u2010": "-", "\u2011": "-", "\u00d7": "x",
               "\u2192": "->", "\u0394": "D"}
# Accents drawn over an ASCII base letter: acute and grave as strokes (the font's own "´" and "`" sit
# at cap height whatever the letter), the others as the ASCII glyph of the same shape.
MARKS = {"\u0301": "acute", "\u0300": "grave", "\u0302": "^", "\u0303": "~", "\u0308": ".."}
INVERTED = {"\u00bf": "?", "\u00a1": "!"}


def _pieces(text):
    """(glyph text, accent or "", space share or None, inverted) per character the font can draw."""
    for char in text:
        if char in SPACES:
            yield " ", "", SPACES[char], False
        elif char in INVERTED:
            yield INVERTED[char], "", None, True
        elif char in SUBSTITUTES:
            yield SUBSTITUTES[char], "", None, False
        elif ord(char) < 128:
            yield char, "", None, False
        else:
            base, *marks = unicodedata.normalize("NFD", char)
            accent = "".join(MARKS.get(mark, "") for mark in marks)
            yield (base if ord(base) < 128 else char), accent, None, False


def text_width(text, font):
    return sum(font.getlength(glyph) * (share if share is not None else 1)
               for glyph, _accent, share, _inverted in _pieces(text))


def fit(text, font, width):
    """`text`, cut with "…" to fit `width` pixels."""
    if text_width(text, font) <= width:
        return text
    while text and text_width(text + "…", font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def write(canvas, xy, text, font, fill, anchor="la"):
    """Draw `text` with its top-left (anchor "la") or middle-left ("lm") at xy."""
    x, y = xy
    ascent, descent = font.getmetrics()
    top = y if anchor == "la" else y - (ascent + descent) // 2
    for glyph, accent, share, inverted in _pieces(text):
        advance = font.getlength(glyph) * (share if share is not None else 1)
        if share is not None:
            x += advance
            continue
        if inverted:
            _draw_inverted(canvas, (x, top), glyph, font, fill)
        else:
            canvas.text((x, top), glyph, font=font, fill=fill)
        if accent:
            _draw_accent(canvas, x, top, glyph, accent, font, fill)
        x += advance


def _draw_accent(canvas, x, top, glyph, accent, font, fill):
    left, glyph_top, right, _bottom = font.getbbox(glyph)
    if glyph in "ij":  # the dot gives way to the accent (as the dotless letter would)
        canvas.rectangle([x + left, top + glyph_top, x + right, top + glyph_top + font.size // 6], fill="white")
    centre, base = x + (left + right) / 2, top + glyph_top - max(2, font.size // 14)
    if accent in ("acute", "grave"):
        rise, run = font.size // 5, font.size // 10
        start, end = (centre - run, base), (centre + run, base - rise)
        if accent == "grave":
            start, end = (centre - run, base - rise), (centre + run, base)
        canvas.line([start, end], fill=fill, width=max(2, font.size // 14))
        return
    mark_left, _mark_top, mark_right, mark_bottom = font.getbbox(accent)
    canvas.text((centre - (mark_left + mark_right) / 2, base - mark_bottom), accent, font=font, fill=fill)


def _draw_inverted(canvas, xy, glyph, font, fill):
    ascent, descent = font.getmetrics()
    width = max(1, round(font.getlength(glyph)))
    mask = Image.new("L", (width, ascent + descent))
    ImageDraw.Draw(mask).text((0, 0), glyph, font=font, fill=255)
    canvas.bitmap((round(xy[0]), round(xy[1])), mask.rotate(180), fill=fill)
