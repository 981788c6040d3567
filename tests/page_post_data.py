"""The POST an editor's browser sends for a page's StreamField, built from the stored (raw) stream.

Wagtail's test helpers write form data by hand; the admin-cost tests need the data of a whole demo
article, so this walks the block definitions the way `value_from_datadict` reads them back.
"""

from wagtail import blocks
from wagtail.test.utils.form_data import rich_text


def _field(block, value, prefix, out):
    if isinstance(block, blocks.StreamBlock):
        items = list(value or [])
        out[f"{prefix}-count"] = str(len(items))
        for i, item in enumerate(items):
            out[f"{prefix}-{i}-type"] = item["type"]
            out[f"{prefix}-{i}-deleted"] = ""
            out[f"{prefix}-{i}-order"] = str(i)
            out[f"{prefix}-{i}-id"] = item.get("id", "")
            _field(block.child_blocks[item["type"]], item["value"], f"{prefix}-{i}-value", out)
    elif isinstance(block, blocks.ListBlock):
        items = list(value or [])
        out[f"{prefix}-count"] = str(len(items))
        for i, item in enumerate(items):
            # Stored list items are {"type": "item", "value": …, "id": …} (older ones: bare values).
            inner = item["value"] if isinstance(item, dict) and item.get("type") == "item" else item
            out[f"{prefix}-{i}-deleted"] = ""
            out[f"{prefix}-{i}-order"] = str(i)
            out[f"{prefix}-{i}-id"] = item.get("id", "") if isinstance(item, dict) else ""
            _field(block.child_block, inner, f"{prefix}-{i}-value", out)
    elif isinstance(block, blocks.StructBlock):
        for name, child in block.child_blocks.items():
            _field(child, (value or {}).get(name), f"{prefix}-{name}", out)
    elif isinstance(block, blocks.RichTextBlock):
        out[prefix] = rich_text(value or "", features=block.features)
    elif isinstance(block, blocks.BooleanBlock):
        out[prefix] = "on" if value else ""
    else:
        out[prefix] = "" if value is None else str(value)


def stream_post_data(stream_field_value, name):
    """{form key: value} for a StreamValue, as the edit form posts it under `name`."""
    out = {}
    _field(stream_field_value.stream_block, list(stream_field_value.raw_data), name, out)
    return out
