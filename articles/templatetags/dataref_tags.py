"""`{% richtext_with_data value %}`: a rich text whose data references use the page's data."""

from django import template

from articles.datarefs.render import render_rich_text

register = template.Library()


@register.simple_tag(takes_context=True)
def richtext_with_data(context, value):
    """Like `{{ value|richtext }}`; inside an article, references get the page's figures and footnotes."""
    return render_rich_text(value, context.get("data") or context.get("page_data"))


@register.simple_tag(takes_context=True)
def inline_richtext_with_data(context, value):
    """A one-line rich text (a card's summary) inside another element: its single paragraph unwrapped."""
    import re

    from django.utils.safestring import mark_safe

    html = str(render_rich_text(value, context.get("data") or context.get("page_data"))).strip()
    match = re.fullmatch(r"<p\b[^>]*>(.*)</p>", html, re.DOTALL)
    if match and not re.search(r"<p[\s>]", match.group(1)):  # one paragraph (an <svg> path is no <p>)
        html = match.group(1)
    return mark_safe(html)  # noqa: S308 (render_rich_text's output: stored rich text, expanded)


@register.simple_tag(takes_context=True)
def block_text(context, value, fallback=""):
    """A data block's caption or note (blocks.inline_text) printed inline, statements checked; when
    the editor left it empty, `fallback` (the block's own caption) as plain text."""
    from django.utils.html import conditional_escape

    if value:  # InlineTextBlock reads an empty or emptied text as ""
        shown = inline_richtext_with_data(context, value)
        if has_words(shown):  # else its only words were a statement the page's policy hid
            return shown
    return conditional_escape(fallback)


@register.filter
def has_words(html):
    """Whether rendered text shows any words (a statement hidden by the "hide" policy may leave none)."""
    from django.utils.html import strip_tags

    return bool(strip_tags(str(html or "")).strip())
