"""Editorial blocks: headings, text, notes, FAQ, related links, methodology, call to action."""

import json

from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext_lazy
from wagtail import blocks

from .base import source_chooser

RICH_FEATURES = ["bold", "italic", "link", "ol", "ul", "code", "statement"]


class CitesChosenSources:
    """A block whose `citations` list holds sources its editor chose: the page's list must hold them
    (articles/forms.py reads `chosen_citations` on publish)."""

    def chosen_citations(self, value):
        return [source for source in value["citations"] if source is not None]


class HeadingValue(blocks.StructValue):
    def anchor_id(self):
        return self["anchor"] or slugify(self["text"])


class HeadingBlock(blocks.StructBlock):
    text = blocks.CharBlock(label=gettext_lazy("text"))
    level = blocks.ChoiceBlock(choices=[("h2", "H2"), ("h3", "H3")], default="h2", label=gettext_lazy("level"))
    anchor = blocks.CharBlock(required=False, label=gettext_lazy("anchor"), help_text=gettext_lazy("Empty: from the text."))

    class Meta:
        icon = "title"
        label = gettext_lazy("Heading")
        untranslated = ("anchor",)  # an address, the same in both languages (editorial.segments)
        template = "articles/blocks/heading.html"
        value_class = HeadingValue


class NoteBlock(CitesChosenSources, blocks.StructBlock):
    style = blocks.ChoiceBlock(
        choices=[("note", gettext_lazy("Note")), ("warning", gettext_lazy("Warning"))], default="note",
        label=gettext_lazy("style"),
    )
    text = blocks.RichTextBlock(features=RICH_FEATURES, label=gettext_lazy("text"))
    citations = blocks.ListBlock(source_chooser(), default=[], label=gettext_lazy("citations"))

    class Meta:
        icon = "warning"
        label = gettext_lazy("Note / callout")
        template = "articles/blocks/note.html"


class FAQItemBlock(blocks.StructBlock):
    question = blocks.CharBlock(label=gettext_lazy("question"))
    answer = blocks.RichTextBlock(features=RICH_FEATURES, label=gettext_lazy("answer"))

    class Meta:
        icon = "help"
        label = gettext_lazy("Question")


class FAQValue(blocks.StructValue):
    def json_ld(self, page_data=None):
        """schema.org FAQPage from the same checked text the page prints: a false statement's sentence
        left out (whatever the page's policy: JSON-LD cannot show a mark), each data reference
        printed as the page prints it. A question left with no answer is left out too."""
        from articles.statements.markup import checked_plain_text

        entities = []
        for item in self["items"]:
            answer = checked_plain_text(item["answer"].source if item["answer"] else "", page_data)
            if answer:
                entities.append({
                    "@type": "Question",
                    "name": item["question"],
                    "acceptedAnswer": {"@type": "Answer", "text": answer},
                })
        data = {"@context": "https://schema.org", "@type": "FAQPage", "mainEntity": entities}
        text = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
        return mark_safe(text)  # noqa: S308 (JSON with every < and > escaped)


class FAQBlock(blocks.StructBlock):
    heading = blocks.CharBlock(required=False, label=gettext_lazy("heading"))
    items = blocks.ListBlock(FAQItemBlock(), label=gettext_lazy("questions"))

    class Meta:
        icon = "help"
        label = gettext_lazy("FAQ")
        template = "articles/blocks/faq.html"
        value_class = FAQValue

    def get_context(self, value, parent_context=None):
        context = super().get_context(value, parent_context)
        # The page's data (as richtext_with_data reads it): statements judged on the figures the page shows.
        page_data = (parent_context or {}).get("data") or (parent_context or {}).get("page_data")
        context["json_ld"] = value.json_ld(page_data)
        return context


class RelatedLinkBlock(blocks.StructBlock):
    page = blocks.PageChooserBlock(required=False, label=gettext_lazy("page"))
    url = blocks.URLBlock(required=False, label=gettext_lazy("or URL"))
    text = blocks.CharBlock(required=False, label=gettext_lazy("text"), help_text=gettext_lazy("Empty: the page title."))

    class Meta:
        icon = "link"
        label = gettext_lazy("Link")

    def clean(self, value):
        from django.core.exceptions import ValidationError
        from wagtail.blocks.struct_block import StructBlockValidationError

        value = super().clean(value)
        if not value["page"] and not value["url"]:
            raise StructBlockValidationError(
                block_errors={"page": ValidationError(gettext_lazy("Choose a page or enter a URL."))}
            )
        if value["url"] and not value["text"]:
            raise StructBlockValidationError(
                block_errors={"text": ValidationError(gettext_lazy("A link to a URL needs a text."))}
            )
        return value


class RelatedLinksBlock(blocks.StructBlock):
    heading = blocks.CharBlock(required=False, label=gettext_lazy("heading"))
    links = blocks.ListBlock(RelatedLinkBlock(), label=gettext_lazy("links"))

    class Meta:
        icon = "link"
        label = gettext_lazy("Related links")
        template = "articles/blocks/related_links.html"


class MethodologyBlock(CitesChosenSources, blocks.StructBlock):
    heading = blocks.CharBlock(label=gettext_lazy("heading"))
    text = blocks.RichTextBlock(features=RICH_FEATURES, label=gettext_lazy("text"))
    citations = blocks.ListBlock(source_chooser(), default=[], label=gettext_lazy("citations"))

    class Meta:
        icon = "doc-full"
        label = gettext_lazy("Methodology")
        template = "articles/blocks/methodology.html"


class CallToActionBlock(blocks.StructBlock):
    heading = blocks.CharBlock(label=gettext_lazy("heading"))
    text = blocks.CharBlock(required=False, label=gettext_lazy("text"))
    button_text = blocks.CharBlock(label=gettext_lazy("button text"))
    url = blocks.URLBlock(label=gettext_lazy("button URL"))

    class Meta:
        icon = "pick"
        label = gettext_lazy("Call to action")
        template = "articles/blocks/call_to_action.html"


class SourcesBlock(blocks.StructBlock):
    heading = blocks.CharBlock(required=False, label=gettext_lazy("heading"))

    class Meta:
        icon = "list-ol"
        label = gettext_lazy("Sources (numbered list)")
        template = "articles/blocks/sources.html"
        help_text = gettext_lazy("Lists the page's sources in order; footnote numbers refer to it.")
