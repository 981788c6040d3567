"""The editor's review as people read it: figures as the chips translators see, not stored
`<embed … />` elements, old and new Spanish compared word by word as text, and everyone who wrote
part of the draft named."""

from django.contrib.auth import get_user_model
from django.utils.html import strip_tags
from django.utils.safestring import mark_safe

from localized.segments import RICH, without_block_keys

from . import richtext_tokens, token_chips
from .spanish import english_segments
from .workspace import current_english, word_diff


def _with_tokens(text, elements):
    """A stored Spanish rich text with the English's tokens in place of its figures, as read text."""
    for token, element in elements.items():
        text = text.replace(element, token, 1)
    return text


def _readable(tokenized):
    """Tokenized rich text as words: block ends become spaces so paragraphs do not run together."""
    spaced = tokenized.replace("</p>", "</p> ").replace("</li>", "</li> ").replace("<br>", "<br> ")
    return " ".join(strip_tags(spaced).split())


def _chipped(html, found):
    def figure(match):
        number = match.group(1)
        return token_chips.chip(number, found[number]) if number in found else match.group(0)

    return mark_safe(richtext_tokens.FIGURE_TOKEN.sub(figure, html))


def decorate(obj, rows):
    """Give each review row `english_html` and `diff_html` to show (rich text with chips)."""
    kinds = {segment.key: segment.kind for segment in english_segments(current_english(obj))}
    for row in rows:
        english = without_block_keys(row.english)
        rich = kinds.get(row.key) == RICH or ("<" in english and richtext_tokens.EMBED.search(english))
        if not rich:
            row.english_html, row.diff_html = row.english, row.diff
            continue
        tokenized, elements = richtext_tokens.tokenize(english)
        found = token_chips.labels(elements)
        row.english_html = token_chips.with_chips(tokenized, found)
        old = _readable(_with_tokens(without_block_keys(row.old), elements))
        new = _readable(_with_tokens(without_block_keys(row.new), elements))
        row.diff_html = _chipped(word_diff(old, new), found)
    return rows


def person(user):
    """How the review names someone: full name, else username; "" for nobody (a deleted account)."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def contributors(draft):
    """Everyone whose text is in the draft, then who submitted it, each once: a draft can hold
    several translators' work though one person submitted it."""
    ids = list(dict.fromkeys(draft.segments.exclude(written_by=None).order_by("pk").values_list("written_by", flat=True)))
    users = get_user_model().objects.in_bulk(ids)
    return [person(users[pk]) for pk in ids if pk in users]
