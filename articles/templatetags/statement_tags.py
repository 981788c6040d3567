"""Filters the marked-statement template reads: the figures that broke a claim."""

from django import template

from articles.statements.markup import evidence_lines

register = template.Library()


@register.filter
def statement_evidence(outcome):
    return evidence_lines(outcome)
