"""Draftail feature for checked statements: the editor's button, storage conversion, fallback rendering."""

from django.urls import path, reverse_lazy
from django.utils.translation import gettext_lazy as _
from draftjs_exporter.dom import DOM
from wagtail import hooks
from wagtail.admin.rich_text.converters.html_to_contentstate import InlineEntityElementHandler
from wagtail.admin.rich_text.editors.draftail.features import EntityFeature
from wagtail.rich_text import LinkHandler

from . import chooser
from .conditions import LINK_TYPE, Claim, InvalidCondition
from .describe import describe_claim

FEATURE = "statement"
ENTITY_TYPE = "STATEMENT"


class StatementElementHandler(InlineEntityElementHandler):
    # Mutable: the words are the editor's and stay editable; the entity carries the conditions.
    mutability = "MUTABLE"

    def get_attribute_data(self, attrs):
        raw = attrs.get("cond", "")
        try:
            label = describe_claim(Claim.parse(raw))
        except InvalidCondition as error:
            label = str(error)
        return {"cond": raw, "label": label}


def statement_entity_decorator(props):
    return DOM.create_element("a", {"linktype": LINK_TYPE, "cond": props.get("cond", "")}, props["children"])


class StatementLinkHandler(LinkHandler):
    """Where a rich text is rendered without the page's data (articles.statements.markup did not run
    first), the words print without a link target rather than as a broken link."""

    identifier = LINK_TYPE

    @classmethod
    def expand_db_attributes(cls, attrs):
        return '<a class="statement">'


@hooks.register("register_rich_text_features")
def register_statement_feature(features):
    features.register_editor_plugin(
        "draftail",
        FEATURE,
        EntityFeature(
            {
                "type": ENTITY_TYPE,
                "icon": "tick",
                "description": _("Checked statement (a sentence about the data, checked against it)"),
                "attributes": ["cond", "label"],
                "chooserUrl": reverse_lazy("articles_statement_chooser"),
                "strings": {"serverError": _("The statement conditions could not be loaded.")},
            },
            js=["articles/js/statement.js"],
            css={"all": ["articles/css/dataref.css"]},
        ),
    )
    features.register_converter_rule(
        "contentstate",
        FEATURE,
        {
            "from_database_format": {f'a[linktype="{LINK_TYPE}"]': StatementElementHandler(ENTITY_TYPE)},
            "to_database_format": {"entity_decorators": {ENTITY_TYPE: statement_entity_decorator}},
        },
    )
    features.register_link_type(StatementLinkHandler)


@hooks.register("register_admin_urls")
def statement_urls():
    return [path("statements/choose/", chooser.choose, name="articles_statement_chooser")]
