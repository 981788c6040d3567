"""Citable versions: which revision of an article was live at a moment, and the moment that names the
version a reader is looking at now.

The address of a version is /<language>/<slug>/as-of/<moment>/, the moment in UTC as
YYYYMMDDTHHMMSSZ (ISO 8601 basic format, whole seconds: 20261202T135100Z). It stands for the state at
the end of that second: every page publication and data publication up to and including
13:51:00.999999 counts. So the address of a state that began at 13:51:00.4 reads 135100Z, as a
reader's clock would print it.

Which revision was live comes from Wagtail's log of the page (PageLogEntry): each publication logs
"wagtail.publish" with its revision, each withdrawal "wagtail.unpublish". Not Revision.created_at (a
draft saved on Monday may go live on Friday) nor approved_go_live_at (cleared once a scheduled
revision goes live). A moment before the first publication, or while the page was withdrawn, has no
version.

The version a reader of the current page sees is named by the newest moment at which anything it
shows changed: its own language's text (a Spanish-only approval publishes a new revision of the whole
page, but leaves the English version, and so the English page's citation, as it was), the data of the
sources it shows (a refresh or a correction), and a figure turning stale with time.
"""

import json
import re
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db.models import Max
from django.utils import timezone

MOMENT_FORMAT = "%Y%m%dT%H%M%SZ"
MOMENT_PATTERN = r"\d{8}T\d{6}Z"
PUBLISH, UNPUBLISH = "wagtail.publish", "wagtail.unpublish"

# What a language version of an article prints: its own text fields, the fields Page's text falls
# back to English for (modeltranslation's fallback), and the fields shared by both languages.
OWN_TEXT = ("title", "seo_title", "search_description", "summary", "body", "publisher_disclosure")
FALLS_BACK = ("title", "seo_title", "search_description")
SHARED = ("show_meta_line",)


def format_moment(moment):
    return moment.astimezone(UTC).strftime(MOMENT_FORMAT)


def parse_moment(text):
    """The aware UTC datetime a moment in an address names (its second's start), or None."""
    try:
        return datetime.strptime(text, MOMENT_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        return None


def end_of_second(moment):
    return moment.replace(microsecond=0) + timedelta(seconds=1) - timedelta(microseconds=1)


def iso_moment(moment):
    """For <time datetime> and citations: full ISO datetime in UTC, no microseconds, with 'Z'."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _publications(page, until=None):
    from wagtail.models import PageLogEntry

    entries = PageLogEntry.objects.filter(page_id=page.pk, action__in=(PUBLISH, UNPUBLISH))
    if until is not None:
        entries = entries.filter(timestamp__lte=until)
    return entries.order_by("-timestamp", "-pk")


def live_revision_at(page, moment):
    """(revision, when it went live) for the revision readers were shown at `moment`, or None."""
    entry = _publications(page, moment).select_related("revision").first()
    if entry is None or entry.action != PUBLISH or entry.revision is None:
        return None
    return entry.revision, entry.timestamp


def revision_page(page, revision):
    """The revision's page exactly as it was stored, under the page's current addresses.

    Not revision.as_object(): loading a revision rebuilds its Spanish from the translation memory of
    today (localized.revisions), while an archived version must show the Spanish it went live with,
    which the revision holds (it was saved with the Spanish approved then)."""
    from localized.revisions import SpanishFromMemoryMixin

    obj = super(SpanishFromMemoryMixin, page).with_content_json(revision.content)
    # Links (data page, change log, language switcher) lead to where the article is now.
    for name in ["url_path"] + [f"url_path_{code}" for code, _name in settings.LANGUAGES]:
        if hasattr(page, name):
            setattr(obj, name, getattr(page, name))
    return obj


def revision_sources(obj):
    """The sources an archived revision lists, in its order, loaded in one query."""
    from benchmarks.models import Source

    rows = sorted(obj.page_sources.all(), key=lambda row: (row.sort_order or 0, row.pk or 0))
    found = Source.objects.in_bulk({row.source_id for row in rows})
    return [found[row.source_id] for row in rows if row.source_id in found]


BLOCK_KEY = re.compile(r'\s+data-block-key="[^"]*"')


def _json(value):
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            pass
    return _normalized(value)


def _normalized(value):
    """A stored value as it prints: a page saved again through the edit form stores the same content
    in another shape (list items wrapped as {"type": "item", "value": …, "id": …}, block ids, rich text's
    data-block-key attributes, "" for None, an empty field of a newer block version stored or left
    out), which no reader sees. Block ids name the downloads of a
    block too, but a version whose text and figures read the same is the same version to cite."""
    if isinstance(value, dict):
        if value.get("type") == "item" and set(value) <= {"type", "value", "id"}:
            return _normalized(value.get("value"))
        items = ((key, _normalized(item)) for key, item in value.items() if key != "id")
        return {key: item for key, item in items if item != ""}  # a field added later: stored or not
    if isinstance(value, list):
        return [_normalized(item) for item in value]
    if isinstance(value, str):
        value = BLOCK_KEY.sub("", value)
        return "" if value == "<p></p>" else value  # an emptied rich text field prints nothing
    return "" if value is None else value


def language_content(content, language):
    """What the `language` version of a revision prints of the revision's own fields."""
    default = settings.LANGUAGE_CODE
    printed = {name: _json(content.get(name)) for name in SHARED}
    for name in OWN_TEXT:
        printed[name] = _json(content.get(f"{name}_{language}"))
        if language != default and name in FALLS_BACK:
            printed[f"{name}_{default}"] = _json(content.get(f"{name}_{default}"))
    rows = sorted(content.get("page_sources") or [], key=lambda row: (row.get("sort_order") or 0, row.get("pk") or 0))
    printed["page_sources"] = [row.get("source") for row in rows]
    return printed


def language_live_since(page, language, batch=4):
    """When the live revision's `language` version went live: the oldest publication in the newest
    unbroken run whose revisions print the same in that language. None without a logged publication.
    Kept under the newest publication once computed (articles/live_since.py)."""
    from .live_since import store, stored

    entries = list(_publications(page, timezone.now()).values_list("action", "revision_id", "timestamp", "pk"))
    if not entries or entries[0][0] != PUBLISH:
        return None
    newest = entries[0][3]
    since = stored(page.pk, language, newest)
    if since is None:
        since = _live_since(entries, language, batch)
        if since is not None:
            store(page.pk, language, newest, since)
    return since


def _live_since(entries, language, batch):
    from wagtail.models import Revision

    since, wanted, contents = None, None, {}
    for index, (action, revision_id, timestamp, _pk) in enumerate(entries):
        if action != PUBLISH or revision_id is None:
            break
        if revision_id not in contents:
            ids = [rid for _action, rid, _t, _pk in entries[index:index + batch] if rid is not None]
            contents.update(Revision.objects.filter(pk__in=ids).values_list("pk", "content"))
        printed = language_content(contents.get(revision_id) or {}, language)
        if wanted is None:
            wanted = printed
        elif printed != wanted:
            break
        since = timestamp
    return since


def data_changed_at(page_data, now):
    """The newest publication of data from the sources the page shows (a refresh or a correction
    replaces a figure at its publication), or a price an editor typed, up to `now`."""
    from benchmarks.models import Price, Snapshot

    sources = set(page_data.sources_shown()) | {source.pk for source in page_data.page_sources}
    if not sources:
        return None
    published = Snapshot.objects.filter(source_id__in=sources, published_at__lte=now).aggregate(
        at=Max("published_at")
    )["at"]
    typed = Price.objects.filter(snapshot__isnull=True, source_id__in=sources, created_at__lte=now).aggregate(
        at=Max("created_at")
    )["at"]
    return max((moment for moment in (published, typed) if moment is not None), default=None)


def turned_stale_at(page_data, now):
    """The last moment up to `now` at which a figure the page shows turned stale (the page changed with
    no new data: an earlier address would show it fresh)."""
    from benchmarks.freshness import measurement_stale_after, price_stale_after

    moments = [measurement_stale_after(row) for row in page_data.measurements]
    moments += [price_stale_after(price) for price in page_data.prices.values()]
    return max((moment for moment in moments if moment is not None and moment <= now), default=None)


def current_version_moment(page, language, page_data):
    """The moment (whole second) whose as-of address shows what the live page shows in `language`, or
    None when the page's publication log has no publication of it."""
    since = language_live_since(page, language)
    if since is None:
        return None  # no logged publication: the as-of route could not find it either (404)
    now = page_data.now
    moments = [since, page_data.data_changed_at(), turned_stale_at(page_data, now)]
    if page_data.rolls_with_time():
        # What it shows moved with the clock (a point left a trend's last N days, a row a leaderboard's
        # window) at moments no stored row records: only this render's own moment shows it again.
        moments.append(now)
    return max(moment for moment in moments if moment is not None).replace(microsecond=0)

