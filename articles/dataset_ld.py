"""The schema.org Dataset an article describes its figures with (JSON-LD in the page's head).

Everything in it is what the page prints: the creators are the sources of the printed figures and of
the page's source list, the licences are those sources' licence (or terms) pages, the temporal coverage
runs from the oldest to the newest snapshot behind a printed figure, and the distribution is the two
downloads the data page offers. Addresses are absolute at the origin the reader uses: the head is
stored by the prerender task, which has no reader's request, so they are written with a placeholder
origin that the response gets before it leaves (articles/addresses.py).
"""

import json

from .addresses import page_address


def dataset(page):
    """The Dataset as a dict (without None or empty values)."""
    data = page.page_data
    sources = list(dict.fromkeys([*data.sources_shown().values(), *data.page_sources]))
    creators = {}
    for source in sources:  # one Organization per publisher, at the address of its first source shown
        creators.setdefault(source.publisher, {"@type": "Organization", "name": source.publisher, "url": source.url})
    url = page_address(page)  # the reader's origin (articles/addresses.py)
    # When the figures last changed, not the page's publication: publishing the Spanish text must not
    # change the English page (a page with no figures has no dateModified rather than a publication
    # time). A correction or a refresh changes them when it is published, after they were measured.
    updated = page.figures_changed_at
    span = coverage(data)
    document = {
        "@context": "https://schema.org",
        "@type": "Dataset",
        "name": page.title,
        "description": page.meta_description() or page.title,
        "url": url,
        "creator": list(creators.values()),
        # schema.org's license is a URL (or a CreativeWork): never the free text an editor notes in
        # Source.licence, which a search engine would read as a relative address.
        "license": sorted({source.licence_url for source in sources if source.licence_url}),
        "isAccessibleForFree": True,
        "temporalCoverage": f"{span[0]}/{span[1]}" if span else None,
        "dateModified": _moment(updated) if updated else None,
        "distribution": distribution(page, url) if url else [],
    }
    return {key: value for key, value in document.items() if value not in (None, [], "")}


def coverage(data):
    """(start, end) of the time the printed figures describe, as ISO 8601: from the oldest measurement or
    the oldest printed price's effective date (a price applies from the day it took effect) to the
    newest measurement or the newest day a printed price was confirmed on; None without figures."""
    from benchmarks.freshness import price_seen_at

    starts, ends = [], []
    for figure in data.printed_figures:
        for row in figure.measurements:
            moment = row.snapshot.measured_at.replace(microsecond=0)
            starts.append((moment.date(), moment.isoformat()))
            ends.append((moment.date(), moment.isoformat()))
        if figure.price is not None:
            starts.append((figure.price.effective_date, figure.price.effective_date.isoformat()))
            seen = price_seen_at(figure.price).replace(microsecond=0)
            ends.append((seen.date(), seen.isoformat()))
    if not starts:
        return None
    return min(starts)[1], max(ends)[1]


def distribution(page, url):
    """DataDownload entries for the article's CSV and JSON files (its data page's downloads)."""
    base = url.rstrip("/") + "/"
    return [
        {"@type": "DataDownload", "encodingFormat": media_type, "contentUrl": base + page.reverse_subpage(route)}
        for route, media_type in (("figures_csv", "text/csv"), ("figures_json", "application/json"))
    ]


def dataset_json_ld(page):
    """The Dataset as JSON safe inside <script>: "<" and ">" escaped so no text can close the element."""
    text = json.dumps(dataset(page), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e")


def _moment(moment):
    """A machine-readable time in whole seconds (tests/test_operator_paper_cuts.py)."""
    return moment.replace(microsecond=0).isoformat()
