"""Page edit forms show no Spanish field: Spanish text is written and approved in the workspace.

wagtail-modeltranslation gives each translated field one panel per language (`title_en`,
`title_es`…, with a "copy content from" button). The Spanish panels are removed once its patching
is done, so no form, for anyone, can save Spanish text or a Spanish body into a page revision.
"""

from wagtail.admin.panels import FieldPanel

from .spanish import TARGET_LANGUAGE, SpanishFromMemoryMixin

SUFFIX = f"_{TARGET_LANGUAGE}"


def _without_spanish(panels):
    kept = []
    for panel in panels:
        if isinstance(panel, FieldPanel) and panel.field_name.endswith(SUFFIX):
            continue
        children = getattr(panel, "children", None)
        if children is not None:
            panel.children = _without_spanish(children)
        kept.append(panel)
    return kept


def drop_spanish_page_panels():
    from wagtail.models import Page, get_page_models

    for model in get_page_models():
        if not issubclass(model, SpanishFromMemoryMixin) or model is Page:
            continue
        for attribute in ("content_panels", "promote_panels", "settings_panels"):
            if attribute in vars(model) or hasattr(model, attribute):
                setattr(model, attribute, _without_spanish(list(getattr(model, attribute))))
        model.get_edit_handler.cache_clear()
