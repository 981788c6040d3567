"""`{% page_citation page as cite %}`: the "Cite this page" box's data (articles/citation.py)."""

from django import template

from articles.citation import page_citation as citation_of

register = template.Library()


@register.simple_tag(takes_context=True)
def page_citation(context, page):
    return citation_of(page, context.get("request"))
