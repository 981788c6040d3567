import logging

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

register = template.Library()
log = logging.getLogger(__name__)


def _page_data(context):
    return context.get("data") or context.get("page_data")


@register.simple_tag(takes_context=True)
def footnotes(context, sources, explicit=False):
    """Footnote markers for sources, numbered by the page's source list.

    A source missing from the list renders no marker; the page form refuses to save such a
    page, so this only happens when data changed after publishing (logged).
    """
    data = _page_data(context)
    if data is None or not sources:
        return ""
    numbers = []
    for source in sources:
        if source is None:
            continue
        number = data.footnote(source)
        if number is None:
            data.missing_citations.add(source)
            if explicit:
                data.missing_explicit.add(source)
            if data.page_sources:
                log.warning("page %s cites %s, which is not in its source list", getattr(data.page, "pk", None), source)
            continue
        if number not in numbers:
            numbers.append(number)
    if not numbers:
        return ""
    links = format_html_join(
        "", '<a href="#source-{}" aria-label="{}">{}</a>', ((n, _("Source %(n)s") % {"n": n}, n) for n in sorted(numbers))
    )
    return format_html('<sup class="fn">{}</sup>', links)


@register.filter
def provenance(measurement):
    """The trail of a figure: source, snapshot and when it was measured (shown as a tooltip)."""
    if measurement is None:
        return ""
    snapshot = measurement.snapshot
    return _("%(source)s · snapshot %(id)s, measured %(date)s") % {
        "source": snapshot.source,
        "id": snapshot.pk,
        "date": snapshot.measured_at.strftime("%Y-%m-%d"),
    }


@register.filter
def price_provenance(price):
    if price is None:
        return ""
    return _("%(source)s · effective %(date)s") % {"source": price.source, "date": price.effective_date.isoformat()}


@register.filter
def figure_provenance(figure):
    """The trail of a figure as its block declares it: one snapshot, a price, or an average's window."""
    if figure is None:
        return ""
    if figure.price is not None:
        return price_provenance(figure.price)
    rows = figure.measurements
    if not rows:
        return ""
    if figure.is_average:
        dates = sorted(row.snapshot.measured_at for row in rows)
        return _("average of %(n)s values over %(hours)s h (%(first)s – %(last)s) · %(sources)s") % {
            "n": len(rows),
            "hours": figure.window_hours,
            "first": dates[0].strftime("%Y-%m-%d %H:%M"),
            "last": dates[-1].strftime("%Y-%m-%d %H:%M"),
            "sources": ", ".join(str(source) for source in figure.sources),
        }
    return provenance(rows[0])
