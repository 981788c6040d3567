"""Which articles show figures a refresh changed: pages whose body (in any language) points at one of the
changed models or at the refreshed source, or that list the source among their footnotes.

Deliberately simple: it reads the stored block JSON rather than rendering pages, so it stays cheap and
keeps working whatever blocks the articles app adds, as long as they store chosen models and sources
under keys named like "model", "models", "source" or "sources".
"""

import json

from django.apps import apps
from django.core.exceptions import FieldError
from django.db.models import TextField
from django.db.models.functions import Cast

REFERENCE_KEYS = ("model", "source")


def referenced_ids(data, found=None):
    """{"model": {ids}, "source": {ids}} from any nesting of block values."""
    found = found if found is not None else {key: set() for key in REFERENCE_KEYS}
    if isinstance(data, dict):
        for key, value in data.items():
            kind = next((k for k in REFERENCE_KEYS if key in (k, f"{k}s", f"{k}_id", f"{k}_ids")), None)
            if kind is not None:
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, int) and not isinstance(item, bool):
                        found[kind].add(item)
                    elif isinstance(item, str) and item.isdigit():
                        found[kind].add(int(item))
            referenced_ids(value, found)
    elif isinstance(data, list):
        for item in data:
            referenced_ids(item, found)
    return found


def body_fields(model):
    """ "body" and its per-language columns (body_en, body_es) when modeltranslation adds them."""
    names = [f.name for f in model._meta.concrete_fields if f.name == "body" or f.name.startswith("body_")]
    translated = [name for name in names if name != "body"]
    return translated or names


def load_references():
    """[(page, {language: referenced ids}, cited source ids)] for every article: one query for the
    bodies, one for the footnote sources (when the page model has them)."""
    try:
        ArticlePage = apps.get_model("articles", "ArticlePage")
    except LookupError:
        return []
    fields = body_fields(ArticlePage)
    annotations = {f"_raw_{name}": Cast(name, output_field=TextField()) for name in fields}
    pages = list(
        ArticlePage.objects.annotate(**annotations)
        .defer(*fields)
        .order_by("-latest_revision_created_at", "-pk")
    )
    cited = {}
    try:
        for page_id, source_id in ArticlePage.objects.filter(page_sources__isnull=False).values_list(
            "pk", "page_sources__source_id"
        ):
            cited.setdefault(page_id, set()).add(source_id)
    except FieldError:
        pass
    references = []
    for page in pages:
        by_language = {}
        for name in fields:
            raw = getattr(page, f"_raw_{name}") or ""
            try:
                by_language[name.removeprefix("body_") if name != "body" else ""] = referenced_ids(
                    json.loads(raw) if raw else []
                )
            except ValueError:
                continue
        references.append((page, by_language, cited.get(page.pk, set())))
    return references


def articles_showing(model_ids, source_ids, references=None):
    """[(page, [languages])] for pages that show any of these models or sources, most recently edited first."""
    model_ids, source_ids = set(model_ids), set(source_ids)
    result = []
    for page, by_language, cited in load_references() if references is None else references:
        languages = [
            language
            for language, found in by_language.items()
            if found["model"] & model_ids or found["source"] & source_ids
        ]
        if languages or cited & source_ids:
            result.append((page, [language for language in languages if language]))
    return result
