from functools import lru_cache

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def machine_number(number):
    """For <data value>: the stored number as machines read it, whatever the page's language."""
    from benchmarks.formatting import plain_number

    return plain_number(number)


def _page_data(context):
    return context.get("data") or context.get("page_data")


@register.simple_tag(takes_context=True)
def footnotes(context, sources, chosen=()):
    """Footnote markers for sources, numbered by the page's source list.

    A source missing from the list (new data, e.g. a price from a page not listed yet) is
    numbered after it and the Sources block lists it; the edit form refuses only citations the
    editor chose (the blocks' `chosen_citations`, articles/forms.py), and only on publish.
    """
    data = _page_data(context)
    if data is None or not (sources or chosen):
        return ""
    numbers = []
    # `chosen`: citations the editor picked next to data-derived `sources` (one marker group).
    for source in [*(sources or ()), *(chosen or ())]:
        if source is None:
            continue
        number = data.cite(source)
        if number is None:
            continue
        if number not in numbers:
            numbers.append(number)
    if not numbers:
        return ""
    links = format_html_join(
        "", '<a href="#source-{}" aria-label="{}">{}</a>', ((n, _("Source %(n)s") % {"n": n}, n) for n in sorted(numbers))
    )
    return format_html('<sup class="fn">{}</sup>', links)


@register.simple_tag(takes_context=True)
def render_body(context, stream):
    """The body rendered ahead of the lines above it, which count the sources its blocks cite.

    On a Spanish page a block whose text is still the English (an untranslated segment shown as
    English, editorial.derive.derive_stream) says so with lang="en", for screen readers and
    hyphenation; its data and layout are the Spanish page's."""
    flat = context.flatten()
    english = _english_blocks(context.get("page"), stream)
    if not english:
        return stream.render_as_block(context=flat)
    return format_html_join(
        "\n",
        '<div class="w-block-{1} block-{1}"{2}>{0}</div>',
        [
            (child.render(context=flat), child.block_type, format_html(' lang="{}"', "en") if child.id in english else "")
            for child in stream
        ],
    )


def _english_blocks(page, stream):
    """Ids of the top-level blocks of `stream` (the page's body in the active language) whose every
    text leaf is the English one, when the active language is not English."""
    from django.utils.translation import get_language

    from localized.segments import segments_of

    language = (get_language() or "en").split("-")[0]
    if page is None or language == "en" or not hasattr(page, "body_en") or getattr(stream, "raw_data", None) is None:
        return set()
    english = {segment.key: segment.source for segment in segments_of(page, ["body"], "en")}
    # The stream rendered may be a preview's, not the stored body_<language>: read the stream itself.
    shown = type("ShownBody", (), {"_meta": type(page)._meta, f"body_{language}": stream})()
    same = {}
    for segment in segments_of(shown, ["body"], language):
        block_id = segment.key.split("/")[1]
        same.setdefault(block_id, []).append(segment.source == english.get(segment.key))
    return {block_id for block_id, flags in same.items() if all(flags)}


@register.filter
def provenance(measurement):
    """The trail of a figure: source, snapshot and when it was measured (shown as a tooltip)."""
    if measurement is None:
        return ""
    from django.utils.translation import get_language

    # Every row of a snapshot has this trail; a page's rows share their Snapshot (data.share_related).
    snapshot = measurement.snapshot
    memo = snapshot.__dict__.setdefault("_printed_trail", {})
    language = get_language()
    if language not in memo:
        memo[language] = _snapshot_trail(snapshot)
    return memo[language]


def _snapshot_trail(snapshot):
    return _("%(source)s · snapshot %(id)s, measured %(date)s") % {
        "source": snapshot.source,
        "id": snapshot.pk,
        "date": snapshot.measured_at.strftime("%Y-%m-%d"),
    }


@register.filter
def short_date(moment):
    """"3 Dec" (with the year when it is not this year), in the page language: "3 dic" in Spanish."""
    if moment is None:
        return ""
    from django.utils import dateformat, timezone
    from django.utils.translation import pgettext

    if hasattr(moment, "hour"):
        moment = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    if moment.year == timezone.localdate().year:
        return dateformat.format(moment, pgettext("day and month of a stale figure", "j M"))
    return dateformat.format(moment, pgettext("day, month and year of a stale figure", "j M Y"))


@register.filter
def figure_date(figure):
    """When the figure was last measured (a price: last confirmed); the newest of an average."""
    if figure is None:
        return None
    if figure.price is not None:
        from benchmarks.freshness import price_seen_at

        return price_seen_at(figure.price)
    dates = [row.snapshot.measured_at for row in figure.measurements]
    return max(dates) if dates else None


@register.filter
def price_provenance(price):
    if price is None:
        return ""
    return _("%(source)s · effective %(date)s") % {"source": price.source, "date": price.effective_date.isoformat()}


def once_per_figure(figure, name, build):
    """`build(figure)` once per figure and language. A figure's trail (its title attribute, its ⓘ panel)
    is made of translated text, source names and dates; the tags that print it ask for it again."""
    from articles.figures import Figure

    if not isinstance(figure, Figure):
        return build(figure)
    from django.utils.translation import get_language

    # Figure is a frozen dataclass: attributes cannot be set, its __dict__ can take a memo.
    memo = figure.__dict__.setdefault("_printed", {})
    key = (name, get_language())
    if key not in memo:
        memo[key] = build(figure)
    return memo[key]


@register.filter
def figure_provenance(figure):
    """The trail of a figure as its block declares it: one snapshot, a price, or an average's window."""
    return once_per_figure(figure, "title", _figure_provenance)


def _figure_provenance(figure):
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


TRAIL_TEMPLATE = "articles/includes/provenance_control.html"


@register.simple_tag(takes_context=True, name="provenance_control")
def provenance_control_tag(context, figure):
    """The ⓘ control of `figure` (TRAIL_TEMPLATE with provenance_control's context). A table column's
    figures mostly share their trail (same sources, snapshot date and method): each distinct trail is
    rendered once per page render and reused."""
    from django.utils.translation import get_language

    facts = once_per_figure(figure, "trail", provenance_control)
    key = None  # no trail (a dash): the template's empty branch
    if facts["figure"] is not None:
        key = (get_language(), tuple(source.pk for source in facts["sources"]), facts["snapshot_date"],
               facts["price_date"], facts["method"])
    data = _page_data(context)
    rendered = getattr(data, "rendered_trails", None)
    if rendered is None:
        rendered = context.render_context.setdefault("rendered_trails", {})
    if key not in rendered:
        # As an inclusion tag renders it: the same engine, a new context layer with the tag's values.
        template = context.template.engine.get_template(TRAIL_TEMPLATE)
        rendered[key] = template.render(context.new(facts))
    return rendered[key]


def provenance_control(figure):
    """A button that opens a figure's trail (source, snapshot date in words, method) by keyboard or touch.

    The trail is in the page (hidden until opened), so it works without a request; the title
    attribute stays for mouse users.
    """
    if figure is None or not (figure.measurements or figure.price is not None):
        return {"figure": None}
    from django.utils import translation

    from benchmarks.metrics import METRICS

    # A sentence can hold measured figures and a price: its trail names both, each with its own date.
    methods, snapshot_date, price_date = [], "", ""
    if figure.measurements:
        metric = METRICS.get(figure.metric)
        method = str(metric.definition) if metric is not None else ""
        # The workload is stored as the source wrote it (English): quoted on English pages only.
        workload = figure.measurements[-1].snapshot.workload if translation.get_language() == "en" else ""
        if workload:
            method = f"{method} ({workload})" if method else workload
        if figure.is_average:
            method = _("Average of %(n)s published values over %(hours)s hours. %(method)s") % {
                "n": len(figure.measurements), "hours": figure.window_hours, "method": method,
            }
        methods.append(method)
        snapshot_date = _date_in_words(max(row.snapshot.measured_at for row in figure.measurements))
    if figure.price is not None:
        methods.append(_("List price per 1M input and output tokens, from the provider's published prices."))
        price_date = _date_in_words(figure.price.effective_date)
    return {"figure": figure, "sources": figure.sources, "snapshot_date": snapshot_date, "price_date": price_date,
            "method": " ".join(method for method in methods if method)}


def _date_in_words(moment):
    """DATE_FORMAT in the active language and time zone ("Dec. 1, 2026"); a page's figures share a few dates."""
    from django.utils import timezone
    from django.utils.translation import get_language

    return _date_format_cached(moment, get_language(), timezone.get_current_timezone_name())


@lru_cache(maxsize=1024)
def _date_format_cached(moment, language, zone):
    from django.utils.formats import date_format

    return date_format(moment, "DATE_FORMAT")


@register.inclusion_tag("articles/includes/download_link.html", takes_context=True)
def download_csv_link(context, caption=""):
    """"Download CSV" under a table, chart or leaderboard: its figures at …/data/csv/<block id>/.

    Only on the live article: a preview's blocks may not be published yet, and a block rendered on its
    own (no page, no stream id) has no file.
    """
    page, block_id, request = context.get("page"), context.get("id"), context.get("request")
    if page is None or not block_id or not hasattr(page, "reverse_subpage") or getattr(request, "is_preview", False):
        return {"url": ""}
    base = page.get_url(request)
    if not base:
        return {"url": ""}
    url = base.rstrip("/") + "/" + page.reverse_subpage("block_csv", kwargs={"block_id": block_id})
    return {"url": url, "caption": caption}


@register.simple_tag
def change_date_of(change_set):
    """When readers started seeing a published change (articles/change_log.py)."""
    from articles.change_log import change_date

    return change_date(change_set)
