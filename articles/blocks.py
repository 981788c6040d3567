from django.utils.translation import gettext_lazy as _
from wagtail import blocks


class HeadingBlock(blocks.StructBlock):
    text = blocks.CharBlock(label=_("text"))

    class Meta:
        icon = "title"
        label = _("Heading")
        template = "articles/blocks/heading.html"


class ArticleBodyBlock(blocks.StreamBlock):
    heading = HeadingBlock()
    paragraph = blocks.RichTextBlock(label=_("Paragraph"), template="articles/blocks/paragraph.html")
