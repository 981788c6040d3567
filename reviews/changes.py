"""Record what a newly published snapshot changed on the live pages, per page, language and place."""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction

from articles.data import PageData
from benchmarks.models import Measurement, Price, Snapshot

from .models import ChangeSet, FigureChange
from .page_figures import differences

log = logging.getLogger(__name__)


def previous_published(snapshot):
    """The snapshot of the same source the pages showed before this one was published."""
    if snapshot.supersedes_id:
        return snapshot.supersedes
    return (
        Snapshot.objects.published()
        .filter(source_id=snapshot.source_id, measured_at__lte=snapshot.measured_at)
        .exclude(pk=snapshot.pk)
        .order_by("-measured_at", "-pk")
        .defer("raw_payload")
        .first()
    )


def touched_models(*snapshots):
    """Models whose figures the snapshots hold (measurements or recorded prices)."""
    ids = [s.pk for s in snapshots if s is not None]
    models = set(
        Measurement.objects.filter(snapshot_id__in=ids)
        .values_list("endpoint__model_id", flat=True)
        .distinct()
    )
    models |= set(
        Price.objects.filter(snapshot_id__in=ids).values_list("endpoint__model_id", flat=True).distinct()
    )
    return models


def _cited_beyond_list(page, lang, blocks, data):
    """Render the body as the live page does; the sources it cites that the page's list lacks."""
    from django.utils import translation

    stream = getattr(page, f"body_{lang}")
    with translation.override(lang):
        stream.render_as_block(context={"page_data": data, "page": page})
    return data.appended_sources


def new_sources(page, lang, blocks, before_data, after_data):
    """Review items for sources that new data made the page cite although its list lacks them.

    The live page numbers such a source after its list (so a save never fails on new data);
    the editor is told here so that the list can be put in the intended order. `before_data` and
    `after_data` are the page's data just before and after the publication, with its source list
    (the same ones differences() read: their figures are computed once for both).
    """
    page_sources = after_data.page_sources
    if not page_sources:
        return []
    from django.utils import translation
    from django.utils.translation import gettext as _

    after = _cited_beyond_list(page, lang, blocks, after_data)
    before = _cited_beyond_list(page, lang, blocks, before_data)
    block_index = next((i for i, child in enumerate(blocks) if getattr(child, "block_type", "") == "sources"), 0)
    items = []
    with translation.override(lang):
        for source in after:
            if source in before:
                continue
            number = len(page_sources) + after.index(source) + 1
            items.append((
                block_index, _("Sources"), ("source", source.pk), FigureChange.Kind.NEW_SOURCE, str(source),
                _("not in the page's list"),
                _("Cited by new data; the page numbers it %(n)s, after its list. Add it under Sources to "
                  "put it where it belongs.") % {"n": number},
                (),
            ))
    return items


def live_articles():
    from articles.models import ArticlePage

    return ArticlePage.objects.live().order_by("path")


def record_changes(snapshot):
    """Compare what every live article shows with and without `snapshot`; store what differs.

    Idempotent: a snapshot is compared once, when it is first seen published.
    """
    if ChangeSet.objects.filter(snapshot=snapshot).exists():
        return None
    previous = previous_published(snapshot)
    change_set = ChangeSet.objects.create(
        snapshot=snapshot, previous=previous, is_correction=bool(snapshot.supersedes_id)
    )
    models = touched_models(snapshot, previous)
    if not models:
        return change_set
    # What readers saw just before the publication, and just after it: the same querysets, two moments.
    published_at = snapshot.published_at
    if published_at is None:
        return change_set  # published before publication times were recorded: no moment to compare
    items, hold_policy = [], set()
    just_before = published_at - timedelta(microseconds=1)
    for page in live_articles():
        if page.statement_policy == "hold":
            hold_policy.add(page.pk)
        page_sources = None
        for lang, _name in settings.LANGUAGES:
            blocks = list(getattr(page, f"body_{lang}", None) or [])
            if not blocks:
                continue
            if page_sources is None:
                page_sources = PageData(page=page).page_sources
            after = PageData(page=page, blocks=blocks, page_sources=page_sources, as_of=published_at)
            if not models & set(after.requirements[0]):
                continue
            before = PageData(page=page, blocks=blocks, page_sources=page_sources, as_of=just_before)
            # The figures first: rendering for new_sources() then numbers citations on the same data.
            for index, place, _key, kind, figure, old, new, named in differences(
                blocks, before, after, lang, page
            ) + new_sources(page, lang, blocks, before, after):
                items.append(
                    FigureChange(
                        change_set=change_set,
                        page_id=page.pk,
                        language=lang,
                        block_index=index,
                        place=place[:300],
                        figure=figure[:300],
                        kind=kind,
                        old_text=old,
                        new_text=new,
                        mentions="\n".join(named),
                    )
                )
            # Broken statements come with their own items (listed first by the review).
            items.extend(broken_statement_items(page, lang, blocks, before, after, change_set))
    # A "hold" page whose statement this snapshot broke keeps the data of just before it.
    held = {item.page_id for item in items if item.kind == FigureChange.Kind.STATEMENT} & hold_policy
    with transaction.atomic():
        FigureChange.objects.bulk_create(items)
        if held:
            hold_pages(held, just_before)
    log.info("snapshot %s changed %s figures on live pages", snapshot.pk, len(items))
    return change_set


def broken_statement_items(page, lang, blocks, before, after, change_set):
    """Review items for statements the new data made false.

    Listed whatever their earlier state was when false now and true just before; a statement
    already false before was listed by the change that broke it. "Was" says what the sentence
    claims, in sentences of the page's language (claim_words); "Now", the figures that broke it."""
    from django.utils import translation
    from django.utils.translation import gettext as _

    from articles.statements.evaluate import evaluate
    from articles.statements.markup import evidence_lines
    from articles.statements.page import broken

    from .claim_words import claim_names, claim_words

    found = []
    with translation.override(lang):
        newly = [
            (statement, outcome) for statement, outcome in broken(blocks, after, page, lang)
            if evaluate(statement.claim, before).holds
        ]
        names = claim_names([statement.claim for statement, _outcome in newly])
        for statement, outcome in newly:
            evidence = "; ".join(line["text"] for line in evidence_lines(outcome))
            found.append(FigureChange(
                change_set=change_set, page_id=page.pk, language=lang, block_index=statement.block_index,
                place=statement.place[:300], figure=statement.words[:300], kind=FigureChange.Kind.STATEMENT,
                old_text=claim_words(statement.claim, names),
                new_text=_("no longer matches the data: %(evidence)s") % {"evidence": evidence or "—"},
            ))
    return found


def hold_pages(page_ids, as_of):
    """Keep each page on the data of the last moment its statements held (the first break wins)."""
    from articles.models import StatementHold
    from benchmarks.cache import invalidate_after_commit

    for page_id in page_ids:
        StatementHold.objects.get_or_create(page_id=page_id, defaults={"as_of": as_of})
    invalidate_after_commit()
