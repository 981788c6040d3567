"""The "Cite this page" box: the permanent address of the version being read, its date, and citations
ready to paste (APA-like and BibTeX).

The reader's access date is filled in by the browser (static/articles/js/cite.js). The box is part of
the article's stored rendering (articles/prerender.py) and of cached copies, which are served for hours
or, for an archived version, a year: a date printed on the server would be the day it was rendered, not
the day it was read. Without JavaScript the box says so and the citations give the version's date as
the date retrieved (the address always shows that version); the script replaces it, in the access line,
the APA text ("Retrieved …") and BibTeX's urldate, with the reader's today.
"""

from django.utils import formats, translation
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from .addresses import page_address
from .versions import current_version_moment, format_moment, iso_moment

BIBTEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "$": r"\$",
                  "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
RETRIEVED = "\ue010"  # where the APA text's retrieval date goes, so only that date is wrapped for the script
BIBTEX_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def bibtex_escape(text):
    return "".join(BIBTEX_SPECIAL.get(char, char) for char in text)


def version_address(live_page, moment, request=None):
    """The absolute as-of address of `moment` in the active language, at the origin the reader uses
    (articles/addresses.py: the stored rendering is made without a reader's request)."""
    base = page_address(live_page, request)
    return f"{base}as-of/{format_moment(moment)}/" if base else None


def _apa_date(moment):
    return _("%(year)s, %(month)s %(day)s") % {
        "year": moment.year, "month": formats.date_format(moment, "F"), "day": moment.day,
    }


def _long_date(moment):
    return formats.date_format(moment, "DATE_FORMAT")


def citation(obj, live_page, moment, request=None):
    """{url, iso, shown, apa, bibtex} for the version of `obj` (the live page, or an archived revision's
    page) at `moment` (whole second, UTC) in the active language; None when it has no address."""
    url = version_address(live_page, moment, request)
    if url is None:
        return None
    title, site = obj.title, _("LLM API Benchmarks")
    shown = _("%(date)s, %(time)s UTC") % {"date": _long_date(moment), "time": moment.strftime("%H:%M:%S")}
    apa_with_mark = _("%(site)s. (%(date)s). %(title)s (version of %(version)s). Retrieved %(retrieved)s, from %(url)s") % {
        "site": site, "date": _apa_date(moment), "title": title, "version": shown, "retrieved": RETRIEVED, "url": url,
    }
    retrieved = _long_date(moment)
    apa = apa_with_mark.replace(RETRIEVED, retrieved)
    before, _mark, after = apa_with_mark.partition(RETRIEVED)
    apa_html = format_html('{}<time class="cite-retrieved" datetime="{}">{}</time>{}', before, iso_moment(moment),
                           retrieved, after)
    language = (translation.get_language() or "en")[:2]
    fields = [
        ("author", f"{{{{{bibtex_escape(site)}}}}}"),
        ("title", f"{{{{{bibtex_escape(title)}}}}}"),
        ("year", f"{{{moment.year}}}"),
        ("month", BIBTEX_MONTHS[moment.month - 1]),
        ("howpublished", f"{{\\url{{{url}}}}}"),
        ("url", f"{{{url}}}"),
        ("urldate", f"{{{moment:%Y-%m-%d}}}"),
        ("note", f"{{{bibtex_escape(_('Version as of %(moment)s') % {'moment': iso_moment(moment)})}}}"),
    ]
    opening = f"@misc{{llmbench-{obj.pk}-{language}-{format_moment(moment)},"
    bibtex = "\n".join([opening, *(f"  {name} = {value}," for name, value in fields), "}"])
    # The field names are BibTeX's own (English) words: marked so, the Spanish page reads them as such.
    # The access date the script fills in: BibTeX's urldate, wrapped so it can find it.
    shown_fields = [
        (name, format_html('{{<span class="cite-urldate">{}</span>}}', f"{moment:%Y-%m-%d}") if name == "urldate"
         else value)
        for name, value in fields
    ]
    bibtex_html = format_html(
        "{}\n{}\n}}", opening,
        format_html_join("\n", '  <span lang="en">{}</span> = {},', shown_fields),
    )
    return {"url": url, "iso": iso_moment(moment), "shown": shown, "apa": apa, "apa_html": apa_html,
            "bibtex": bibtex, "bibtex_html": bibtex_html}


def page_citation(page, request=None):
    """The citation of what `page` shows: an archived version (its moment set by the as-of route) or
    the live page now. None in a preview (a draft is no version) or for a page never published."""
    if request is not None and getattr(request, "is_preview", False):
        return None
    archived = getattr(page, "as_of_moment", None)
    if archived is not None:
        return citation(page, page.live_page, archived, request)
    language = (translation.get_language() or "en")[:2]
    moment = current_version_moment(page, language, page.page_data)
    return citation(page, page, moment, request) if moment is not None else None
