"""The StreamField editor's block definitions, packed once per process and interface language.

Wagtail packs the whole block tree into JSON (telepath) for every form it builds, and builds a new form
class, field and widget for every request: for the article body that is ~200 KB of JSON and about a
third of the time of opening the edit view (issue 28). The tree is code — block classes, their labels
(translated into the editor's interface language) and their choices (the metric registry, also code) —
so what is packed changes only with the code or the language, never with the page, the data or the
user. Each packing is kept beside the block it was made from, so a recycled id() never matches.

Default values inside the packing (an empty list item's id, an empty rich text's Draftail block key)
are drawn at random by Wagtail; they are then the same for every opening of the editor in this
process, as they already were for every block added in one opening. They only seed new blocks: list
items are keyed by their path under their own block (localized/segments.py), never by the id alone.
"""

from django.utils.translation import get_language
from wagtail.blocks.base import BlockWidget

# {(id(block), language): (block, js_context, block_json)}
_packed = {}


class PackedOnceBlockWidget(BlockWidget):
    """Wagtail's BlockWidget, whose definition JSON (and the media it needs) is built once per block and
    language in this process instead of once per form."""

    def _build_block_json(self):
        key = (id(self.block_def), get_language())
        hit = _packed.get(key)
        if hit is None or hit[0] is not self.block_def:
            super()._build_block_json()
            hit = _packed[key] = (self.block_def, self._js_context, self._block_json)
        _block, self._js_context, self._block_json = hit


def pack_definitions_once(form):
    """Give each StreamField of `form` the widget above (same block, same attributes)."""
    for field in form.fields.values():
        widget = field.widget
        if type(widget) is BlockWidget:
            field.widget = PackedOnceBlockWidget(widget.block_def, attrs=widget.attrs)
