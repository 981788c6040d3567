"""`{% richtext_with_data value %}`: a rich text whose data references use the page's data."""

from django import template

from articles.datarefs.render import render_rich_text

register = template.Library()


@register.simple_tag(takes_context=True)
def richtext_with_data(context, value):
    """Like `{{ value|richtext }}`; inside an article, references get the page's figures and footnotes."""
    return render_rich_text(value, context.get("data") or context.get("page_data"))
