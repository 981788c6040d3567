"""The "Cite this page" box: the permanent address of the version being read, its date, and citations
ready to paste (APA-like and BibTeX).

No access date of the reader's own is printed. The box is part of the article's stored rendering
(articles/prerender.py) and of cached copies, which are served for hours or, for an archived version,
a year: a date printed there would be the day it was rendered, not the day it was read. The address
always shows the same version, so its date stands for what was read, and the citations give it as
the date retrieved ("Retrieved <version date>", BibTeX's urldate).
"""

from django.utils import formats, translation
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from .versions import current_version_moment, format_moment, iso_moment

BIBTEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "$": r"\$",
                  "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
BIBTEX_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def bibtex_escape(text):
    return "".join(BIBTEX_SPECIAL.get(char, char) for char in text)


def version_address(live_page, moment, request=None):
    """The absolute as-of address of `moment` in the active language (the site's root URL, so the
    stored rendering made without a real request prints the same as a reader's request)."""
    base = live_page.get_full_url(request)
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
    apa = _("%(site)s. (%(date)s). %(title)s (version of %(version)s). Retrieved %(retrieved)s, from %(url)s") % {
        "site": site, "date": _apa_date(moment), "title": title, "version": shown,
        "retrieved": _long_date(moment), "url": url,
    }
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
    bibtex_html = format_html(
        "{}\n{}\n}}", opening,
        format_html_join("\n", '  <span lang="en">{}</span> = {},', fields),
    )
    return {"url": url, "iso": iso_moment(moment), "shown": shown, "apa": apa, "bibtex": bibtex,
            "bibtex_html": bibtex_html}


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
