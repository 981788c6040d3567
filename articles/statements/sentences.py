"""Taking a hidden statement's whole sentence out of rich text.

A statement often covers only part of a sentence ("Of the 6 hosts measured, [one stands well
ahead]: …"). Dropping only its words leaves the rest of the sentence dangling (", so weigh it…",
"The steadiest host here: ."), so a statement that is left out takes every sentence it touches
with it. Sentences are found in the text a reader sees, across inline markup (a true statement's
span, bold, a link, a data reference), and never across a paragraph or list item.
"""

import re

# Around the words of a statement that is left out (Unicode private use: never typed by editors).
OPEN, CLOSE = "\ue010", "\ue011"
# Stands for an inline element without text (a data reference's <embed/>): part of its sentence.
VOID = "\ue012"

TOKENS = re.compile(r"(<[^>]*>)")
TAG_NAME = re.compile(r"</?\s*([a-zA-Z][\w-]*)")
# Tags that end a run of sentences: what is on either side of them is never one sentence.
BLOCK_TAGS = {
    "p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "br", "hr",
    "table", "tr", "td", "th", "section", "figure", "figcaption", "details", "summary", "pre",
}
VOID_TAGS = {"embed", "img", "wbr"}
# A sentence ends at . ! ? or … followed by a space or the end, after any closing quote or bracket
# and after the marks above ("… tier.</a> Next" ends at the period inside the statement).
SENTENCE_END = re.compile(rf"[.!?…][\"'”’»)\]{OPEN}{CLOSE}]*(?=\s|$)")
# Inline elements emptied by the removal, which would print nothing but an empty box or link.
EMPTY_INLINE = re.compile(r"<(span|b|i|strong|em|a|code|sup|sub|small)\b[^>]*>\s*</\1\s*>", re.IGNORECASE)
EMPTY_BLOCK = re.compile(r"<(p|li|h[1-6])\b[^>]*>\s*</\1\s*>", re.IGNORECASE)


def wrap(words):
    """A left-out statement's words, marked so that drop_marked_sentences() finds its sentence."""
    return f"{OPEN}{words}{CLOSE}"


def drop_marked_sentences(html):
    """The HTML without every sentence that holds (part of) a wrapped statement."""
    if OPEN not in html:
        return html
    parts = TOKENS.split(html)
    out, run = [], []
    for part in parts:
        if part.startswith("<") and _tag_name(part) in BLOCK_TAGS:
            out.extend(_drop_in_run(run))
            out.append(part)
            run = []
        else:
            run.append(part)
    out.extend(_drop_in_run(run))
    html = "".join(out)
    previous = None
    while previous != html:  # an emptied link inside an emptied bold, and so on
        previous, html = html, EMPTY_INLINE.sub("", html)
    return EMPTY_BLOCK.sub("", html).replace(OPEN, "").replace(CLOSE, "")


def _tag_name(tag):
    match = TAG_NAME.match(tag)
    return match.group(1).lower() if match else ""


def _drop_in_run(parts):
    """The parts of one paragraph (text and inline tags) without the sentences to drop."""
    # The text a reader sees, each character remembering its part: (part index, offset in it).
    plain, where = [], []
    for index, part in enumerate(parts):
        if part.startswith("<"):
            if _tag_name(part) in VOID_TAGS:
                plain.append(VOID)
                where.append((index, None))
        else:
            plain.extend(part)
            where.extend((index, offset) for offset in range(len(part)))
    text = "".join(plain)
    if OPEN not in text:
        return parts
    drop = _dropped_positions(text)
    cut = {}
    for position in drop:
        index, offset = where[position]
        cut.setdefault(index, set()).add(offset)
    result = []
    for index, part in enumerate(parts):
        if index not in cut:
            result.append(part)
        elif None not in cut[index]:  # a text: its dropped characters out
            result.append("".join(ch for offset, ch in enumerate(part) if offset not in cut[index]))
    return result


def _dropped_positions(text):
    """Positions of the characters to drop: every sentence overlapping a wrapped statement, with the
    space after it (or, for the last sentence of the paragraph, the space before it)."""
    sentences, start = [], 0
    for match in SENTENCE_END.finditer(text):
        sentences.append((start, match.end()))
        start = match.end()
    if text[start:].strip():
        sentences.append((start, len(text)))
    elif sentences:
        sentences[-1] = (sentences[-1][0], len(text))
    hidden, depth, begin = [], 0, 0
    for position, ch in enumerate(text):
        if ch == OPEN:
            depth, begin = depth + 1, position if depth == 0 else begin
        elif ch == CLOSE and depth:
            depth -= 1
            if depth == 0:
                hidden.append((begin, position + 1))
    if depth:  # a statement left open (malformed): to the end of the paragraph
        hidden.append((begin, len(text)))
    drop = set()
    kept_before = False
    for n, (start, end) in enumerate(sentences):
        if not any(start < h_end and h_start < end for h_start, h_end in hidden):
            kept_before = True
            continue
        # Each sentence starts with the space after the previous one: a dropped sentence takes that
        # space with it when a kept sentence came before, otherwise the space after it goes.
        stripped_start = start + len(text[start:end]) - len(text[start:end].lstrip())
        if kept_before or n == len(sentences) - 1:
            drop.update(range(start, end))
        else:
            drop.update(range(stripped_start, end))
            following = sentences[n + 1][0] if n + 1 < len(sentences) else end
            while following < len(text) and text[following].isspace():
                drop.add(following)
                following += 1
    return drop
