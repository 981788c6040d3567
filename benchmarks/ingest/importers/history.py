"""What an import does to history: a different file for a source and moment already published is a
correction of that snapshot (supersedes link, note), and values that need a look hold the import
as a draft with the reasons (the same rules as a refresh, see ../review.py)."""

from django.utils.translation import gettext as _

from ...metrics import JUMP_FACTOR, METRICS
from ...models import Endpoint, Price, Snapshot, Source
from ..review import measurement_concerns, previous_values, price_concerns, prices_in_force
from .formats import ImportIssue, ImportRejected


def replaced_snapshot(snapshot):
    """The published snapshot of the same source and measured_at that this import corrects, or None."""
    if snapshot.source_id is None or snapshot.measured_at is None:
        return None
    return (
        Snapshot.objects.filter(
            source_id=snapshot.source_id, measured_at=snapshot.measured_at, status=Snapshot.Status.PUBLISHED
        )
        .defer("raw_payload")
        .first()
    )


def lock_source(snapshot):
    """Serialise imports (and refreshes) of one source: the checks below then see every earlier write."""
    Source.objects.select_for_update().filter(pk=snapshot.source_id).values_list("pk", flat=True).get()


def link_correction(snapshot, replaced, filename):
    """Make the unsaved `snapshot` a correction of `replaced`; refuse if another one is pending."""
    pending = Snapshot.objects.filter(supersedes=replaced).only("pk").first()
    if pending is not None:
        raise ImportRejected(
            [
                ImportIssue(
                    _(
                        "Snapshot #%(old)s (same source and measured at) already has a draft correction, "
                        "#%(draft)s: publish or delete it before importing another file for it."
                    )
                    % {"old": replaced.pk, "draft": pending.pk}
                )
            ]
        )
    snapshot.supersedes = replaced
    snapshot.correction_note = _(
        "Re-imported from a different file (%(file)s) for the same source and measured at; "
        "replaces snapshot #%(old)s."
    ) % {"file": filename or _("no file name"), "old": replaced.pk}


def measurement_review(source, measurements):
    """Reasons to hold imported measurements for review, judged against the source's published values."""
    if source is None or not measurements:
        return []
    endpoint_ids = {m.endpoint_id for m in measurements}
    previous = previous_values(source, endpoint_ids)
    # Judge first, name afterwards: loading a label for each of 10,000 endpoints cost more than the check.
    # A concern needs a value outside its metric's plausible bounds or a previous value to jump from; the
    # rest (all of a source's first import) skip measurement_concerns and its messages.
    flagged = []
    for m in measurements:
        old = previous.get((m.endpoint_id, m.metric))
        if old is None and METRICS[m.metric].plausible(m.value):
            continue
        if measurement_concerns("", m.metric, m.value, old):
            flagged.append(m)
    labels = _labels({m.endpoint_id for m in flagged})
    concerns = []
    for m in flagged:
        concerns += measurement_concerns(labels[m.endpoint_id], m.metric, m.value, previous.get((m.endpoint_id, m.metric)))
    return concerns


def price_review(prices):
    """Reasons to hold imported prices for review, judged against the prices readers see now."""
    if not prices:
        return []
    endpoint_ids = {p.endpoint_id for p in prices}
    labels = _labels(endpoint_ids)
    in_force = prices_in_force(endpoint_ids)
    concerns = []
    for p in prices:
        # A correction is judged against the figures it corrects too: a 5× fix deserves a second look.
        concerns += price_concerns(
            labels[p.endpoint_id], p.input_per_m, p.output_per_m, p.currency, in_force.get(p.endpoint_id), JUMP_FACTOR
        )
    return concerns


def other_snapshot_prices(replaced=None):
    """Prices another import could collide with: not those of superseded snapshots (history) nor of
    the snapshot being corrected (its correction repeats its days on purpose)."""
    prices = Price.objects.exclude(snapshot__status=Snapshot.Status.SUPERSEDED)
    if replaced is not None:
        prices = prices.exclude(snapshot=replaced)
    return prices


def _labels(endpoint_ids):
    return {
        e.pk: f"{e.label} · {e.model.name}"
        for e in Endpoint.objects.filter(pk__in=endpoint_ids).select_related("provider", "model")
    }
