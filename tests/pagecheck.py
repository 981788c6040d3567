"""Find expected lines, in order, in a page's visible text (white space ignored).

The suite's own copy of the check `../shared/tools/seedcheck.py` performs, so the tests run
without the shared folder. Expected lines live in tests/expected/ (figures and labels only).
"""

import html.parser
import unicodedata
from pathlib import Path

EXPECTED = Path(__file__).parent / "expected"
SKIP = {"script", "style", "head", "title", "noscript", "template"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}


class VisibleText(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skipping = [], []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        if self.skipping or tag in SKIP or "hidden" in dict(attrs):
            self.skipping.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID or not self.skipping:
            return
        if tag in self.skipping:
            while self.skipping and self.skipping.pop() != tag:
                pass

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def visible_text(html_text):
    parser = VisibleText()
    parser.feed(html_text)
    parser.close()
    return "".join(parser.parts)


def squeeze(text):
    return "".join(unicodedata.normalize("NFC", text).replace("\u00a0", " ").split())


def expected_lines(name):
    return [line.rstrip("\n") for line in (EXPECTED / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def in_order_share(lines, html_text):
    """(share of characters found in order, [lines missing or out of order])."""
    flat = squeeze(visible_text(html_text))
    position = found = total = 0
    missing = []
    for line in lines:
        needle = squeeze(line)
        total += len(needle)
        at = flat.find(needle, position)
        if at >= 0:
            found += len(needle)
            position = at + len(needle)
        else:
            missing.append(line)
    return (100.0 * found / total if total else 0.0), missing
