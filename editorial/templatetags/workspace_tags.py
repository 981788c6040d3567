"""Template filters of the translation workspace."""

from django import template
from django.utils.html import format_html

register = template.Library()


@register.filter
def segment_label(label):
    """A segment label ("Heading · GLM-5.3 output speed › text") with the block's own words, which are
    English content, marked lang="en" (localized.segments._block_label writes them after " · ")."""
    kind, separator, rest = str(label).partition(" · ")
    if not separator:
        return label
    gist, more, tail = rest.partition(" › ")
    return format_html('{} · <span lang="en">{}</span>{}{}', kind, gist, more, tail)
