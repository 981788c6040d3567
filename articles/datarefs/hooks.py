"""Draftail feature registration for data references: editor plugin, storage conversion, rendering."""

from django.urls import path, reverse_lazy
from django.utils.translation import gettext_lazy as _
from wagtail import hooks
from wagtail.admin.rich_text.editors.draftail.features import EntityFeature

from . import chooser
from .editor import ENTITY_TYPE, DatarefElementHandler, dataref_entity_decorator
from .refs import ATTRIBUTES, EMBED_TYPE
from .render import DatarefEmbedHandler

FEATURE = "dataref"


@hooks.register("register_rich_text_features")
def register_dataref_feature(features):
    features.register_editor_plugin(
        "draftail",
        FEATURE,
        EntityFeature(
            {
                "type": ENTITY_TYPE,
                "icon": "table",
                "description": _("Data reference (a live figure)"),
                # Kept when a token is copied between editors, e.g. from the English body to the Spanish one.
                "attributes": [*ATTRIBUTES, "label"],
                "chooserUrl": reverse_lazy("articles_dataref_chooser"),
                "strings": {
                    "edit": _("Change reference"),
                    "serverError": _("The data reference chooser could not be loaded."),
                },
            },
            js=["articles/js/dataref.js"],
            css={"all": ["articles/css/dataref.css"]},
        ),
    )
    features.register_converter_rule(
        "contentstate",
        FEATURE,
        {
            "from_database_format": {f'embed[embedtype="{EMBED_TYPE}"]': DatarefElementHandler(ENTITY_TYPE)},
            "to_database_format": {"entity_decorators": {ENTITY_TYPE: dataref_entity_decorator}},
        },
    )
    features.register_embed_type(DatarefEmbedHandler)


@hooks.register("register_admin_urls")
def dataref_urls():
    return [path("datarefs/choose/", chooser.choose, name="articles_dataref_chooser")]
