"""A translation that changes a page's Spanish slug changes its Spanish address: the review says so
as an address change (old → new), not only as a word diff of the slug."""

from wagtail.models import Page

from .spanish import TARGET_LANGUAGE


def address_changes(obj, draft):
    """[(old address, new address)] the draft's approval would make, in Spanish."""
    if not isinstance(obj, Page) or draft is None:
        return []
    from articles.address_redirects import page_address

    slug = draft.segments.filter(key="slug").values_list("text", flat=True).first()
    if slug is None:
        return []
    old = page_address(obj, TARGET_LANGUAGE)
    parent = obj.get_parent()
    parent_address = page_address(parent, TARGET_LANGUAGE) if parent is not None else None
    if old is None or parent_address is None:
        return []
    # An emptied Spanish slug falls back to the English one (docs/translation.md).
    new = f"{parent_address[1]}{slug.strip() or obj.slug_en}/"
    return [(old[1], new)] if new != old[1] else []
