"""A paragraph whose rich text may hold live data references (the "dataref" feature)."""

from types import SimpleNamespace

from wagtail import blocks


class DataParagraphBlock(blocks.RichTextBlock):
    """Declares the data its references read, like every data block, so reviews and the data page
    see a figure that appears only in prose."""

    def data_requirements(self, value):
        from articles.datarefs.refs import refs_in_html

        for ref in refs_in_html(value.source if value else ""):
            yield SimpleNamespace(pk=ref.model_id), None

    def figures(self, value, data):
        from articles.datarefs.refs import refs_in_html
        from articles.datarefs.resolve import ref_figures

        return ref_figures(refs_in_html(value.source if value else ""), data)
