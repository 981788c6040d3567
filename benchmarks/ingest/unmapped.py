"""The upstream rows a refresh could not place on one of our endpoints, kept for editors to map.

Every unmapped identifier is stored, one row each, updated in place (last seen, times seen, values):
LiteLLM's price list alone has thousands, and the editor who maps `together_ai/…` keys must be able to
find them. Rows are written in batches, so a run costs a few queries whatever the upstream's size.
The provider and model a row names are recognised by name (`KnownNames`) to sort and filter the list;
that never places a row, only a mapping does.
"""

import re

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from ..models import LanguageModel, Provider
from ..refresh_models import UnmappedUpstreamRow

BATCH = 1000
UPDATED_FIELDS = [
    "upstream_name", "reason", "source", "last_run", "last_seen", "sample",
    "provider_hint", "model_hint", "provider", "model", "known_names",
]
_DECIMAL_P = re.compile(r"(?<=\d)p(?=\d)")  # Fireworks writes 5.3 as "5p3"
_QUALIFIER = re.compile(r"\([^)]*\)")  # "gpt-oss-120B (high)"
_NOT_ALNUM = re.compile(r"[^0-9a-z]+")
MIN_PREFIX = 4  # "groq" matches "groq_cloud", but "ai" matches nothing by prefix


def normal(text):
    text = _QUALIFIER.sub(" ", (text or "").lower())
    return _NOT_ALNUM.sub("", _DECIMAL_P.sub(".", text))


class KnownNames:
    """Our providers and models by normalised name (two queries), to recognise them in upstream text."""

    def __init__(self):
        self.providers = {}
        for provider in Provider.objects.only("pk", "name", "slug", "full_name"):
            for text in (provider.name, provider.slug, provider.full_name):
                if normal(text):
                    self.providers.setdefault(normal(text), provider)
        self.models = {}
        for model in LanguageModel.objects.only("pk", "name", "slug"):
            for text in (model.name, model.slug):
                if normal(text):
                    self.models.setdefault(normal(text), model)

    def provider(self, hint):
        """Same name, or one a prefix of the other ("together" / "Together AI", "fireworks_ai" / "Fireworks")."""
        hint = normal(hint)
        if not hint:
            return None
        if hint in self.providers:
            return self.providers[hint]
        matches = [
            (len(name), provider)
            for name, provider in self.providers.items()
            if min(len(name), len(hint)) >= MIN_PREFIX and (hint.startswith(name) or name.startswith(hint))
        ]
        return max(matches, key=lambda match: match[0])[1] if matches else None

    def model(self, hint):
        """Same name, or the longest of our names followed by a variant word ("GLM-5.3-Fast" → GLM-5.3,
        "GLM-5.3-Flash" → GLM-5.3-Flash), never by a digit ("GLM-5.2" is not GLM-5)."""
        hint = normal(hint)
        if not hint:
            return None
        if hint in self.models:
            return self.models[hint]
        matches = [
            (len(name), model)
            for name, model in self.models.items()
            if hint.startswith(name) and len(hint) > len(name) and hint[len(name)].isalpha()
        ]
        return max(matches, key=lambda match: match[0])[1] if matches else None


def record_unmapped(upstream, source, run, placed):
    """Store the run's unmapped rows and drop the ones mapped since; returns (unmapped count, notes)."""
    now = timezone.now()
    unmapped = {p.row.upstream_id: p for p in placed if p.endpoint is None and not p.ignored}
    mapped_ids = [
        key for p in placed if p.endpoint is not None or p.ignored for key in (p.row.upstream_id, *p.row.aliases)
    ]
    for ids in batches(mapped_ids):
        UnmappedUpstreamRow.objects.filter(upstream=upstream, upstream_id__in=ids).delete()
    names = KnownNames() if unmapped else None
    rows = [unmapped_row(upstream, source, run, item, names, now) for item in unmapped.values()]
    limit = settings.REFRESH_MAX_UNMAPPED_STORED
    if len(rows) > limit:
        # A guard for the database, far above any upstream we read: the rows that name ours are kept.
        rows = sorted(rows, key=lambda row: (-row.known_names, row.upstream_id))[:limit]
    stored = [row.upstream_id for row in rows]
    seen_before = []
    for ids in batches(stored):
        seen_before += UnmappedUpstreamRow.objects.filter(upstream=upstream, upstream_id__in=ids).values_list(
            "upstream_id", flat=True
        )
    # One statement per batch: new rows inserted, known ones updated in place (first seen kept).
    UnmappedUpstreamRow.objects.bulk_create(
        rows, batch_size=BATCH, update_conflicts=True, unique_fields=["upstream", "upstream_id"],
        update_fields=UPDATED_FIELDS,
    )
    for ids in batches(seen_before):
        UnmappedUpstreamRow.objects.filter(upstream=upstream, upstream_id__in=ids).update(
            times_seen=F("times_seen") + 1
        )
    return len(unmapped), notes(placed, len(unmapped), len(rows))


def unmapped_row(upstream, source, run, item, names, now):
    row = item.row
    provider, model = names.provider(row.provider_hint), names.model(row.model_hint)
    return UnmappedUpstreamRow(
        upstream=upstream, upstream_id=row.upstream_id[:300], upstream_name=row.name[:300],
        reason=item.reason[:300], source=source, last_run=run, first_seen=now, last_seen=now,
        sample=row.canonical(), provider_hint=row.provider_hint[:200], model_hint=row.model_hint[:300],
        provider=provider, model=model, known_names=(provider is not None) + (model is not None),
    )


def notes(placed, unmapped, stored):
    lines = []
    if unmapped:
        lines.append(f"{unmapped} rows have no mapping yet: see Unmapped upstream rows.")
    if unmapped > stored:
        lines.append(
            f"Only {stored} unmapped rows were stored (REFRESH_MAX_UNMAPPED_STORED), those naming our providers "
            f"and models first; {unmapped - stored} more were counted, not stored."
        )
    ignored = sum(1 for p in placed if p.ignored)
    if ignored:
        lines.append(f"{ignored} rows are marked “not ours” in the mapping table.")
    return lines


def batches(items, size=BATCH):
    items = list(items)
    return [items[start:start + size] for start in range(0, len(items), size)]

