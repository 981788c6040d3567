"""The workspace's long list in sections: the segments of a page under its headings, with jump links.

A page body of fifty segments was one table thousands of pixels tall; grouping the rows under the
English headings they follow lets a translator jump to a section and keep their bearings.
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from localized.segments import raw_stream


@dataclass
class Group:
    anchor: str
    title: str
    is_heading: bool
    rows: list = field(default_factory=list)


def heading_blocks(obj):
    """Ids of the top-level heading blocks of the English body (where a section starts)."""
    body = getattr(obj, "body_en", None)
    if body is None:
        return set()
    return {child.get("id") for child in raw_stream(body) if isinstance(child, dict) and child.get("type") == "heading"}


def group_rows(rows, headings):
    """[Group]: the rows before the first heading under "Page", then one group per heading."""
    groups = [Group("section-page", str(_("Page")), False)]
    for row in rows:
        parts = row.key.split("/")
        if len(parts) > 1 and parts[1] in headings and parts[-1] == "text":
            groups.append(Group(f"section-{parts[1]}", row.segment.source, True))
        groups[-1].rows.append(row)
    return [group for group in groups if group.rows]
