"""The upstream rows a refresh could not place on one of our endpoints, kept for editors to map."""

from django.conf import settings
from django.utils import timezone

from ..refresh_models import UnmappedUpstreamRow


def record_unmapped(upstream, source, run, placed):
    """Store the run's unmapped rows (one per identifier, updated in place), drop the ones mapped
    since; returns (unmapped count, notes)."""
    now = timezone.now()
    unmapped = {p.row.upstream_id: p for p in placed if p.endpoint is None and not p.ignored}
    mapped_ids = [
        key for p in placed if p.endpoint is not None or p.ignored for key in (p.row.upstream_id, *p.row.aliases)
    ]
    total_unmapped = len(unmapped)
    limit = settings.REFRESH_MAX_UNMAPPED_STORED
    if total_unmapped > limit:
        # A list nobody can read helps nobody and can fill the database: keep the first rows, count the rest.
        unmapped = dict(sorted(unmapped.items())[:limit])
    UnmappedUpstreamRow.objects.filter(upstream=upstream, upstream_id__in=mapped_ids).delete()
    existing = {
        row.upstream_id: row
        for row in UnmappedUpstreamRow.objects.filter(upstream=upstream, upstream_id__in=list(unmapped))
    }
    new_rows, updated = [], []
    for upstream_id, item in unmapped.items():
        values = dict(
            upstream_name=item.row.name[:300],
            reason=item.reason[:300],
            source=source,
            last_run=run,
            last_seen=now,
            sample=item.row.canonical(),
        )
        row = existing.get(upstream_id)
        if row is None:
            new_rows.append(UnmappedUpstreamRow(upstream=upstream, upstream_id=upstream_id[:300], first_seen=now, **values))
        else:
            for name, value in values.items():
                setattr(row, name, value)
            row.times_seen += 1
            updated.append(row)
    UnmappedUpstreamRow.objects.bulk_create(new_rows)
    UnmappedUpstreamRow.objects.bulk_update(
        updated, ["upstream_name", "reason", "source", "last_run", "last_seen", "sample", "times_seen"]
    )
    notes = []
    ignored = sum(1 for p in placed if p.ignored)
    if unmapped:
        notes.append(f"{total_unmapped} rows have no mapping yet: see Unmapped upstream rows.")
    if total_unmapped > len(unmapped):
        notes.append(
            f"Only the first {len(unmapped)} unmapped rows were stored (REFRESH_MAX_UNMAPPED_STORED); "
            f"{total_unmapped - len(unmapped)} more were counted, not stored."
        )
    if ignored:
        notes.append(f"{ignored} rows are marked “not ours” in the mapping table.")
    return total_unmapped, notes
