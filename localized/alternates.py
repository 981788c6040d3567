"""A page's address in each language, and whether that language version is worth advertising."""

from django.conf import settings
from django.utils import translation
from modeltranslation.translator import NotRegistered, translator

from localized.tracking import SOURCE_LANGUAGE, is_blank


def _fields_without_fallback(model):
    try:
        options = translator.get_options_for_model(model)
    except NotRegistered:
        return []
    return [
        name
        for name in options.all_fields
        if getattr(getattr(model, name, None), "fallback_languages", None) == {"default": ()}
    ]


def has_language_version(page, language):
    """English always; another language when the page has a title and some text of its own in it.

    Pages whose text never falls back (articles) would otherwise be advertised to search engines in
    Spanish while showing only "no content in this language yet".
    """
    if language == SOURCE_LANGUAGE:
        return True
    has_body_in = getattr(page, "has_body_in", None)
    if has_body_in is not None and not has_body_in(language):
        return False  # an article without a body in this language is not served there (404)
    if is_blank(getattr(page, f"title_{language}", None)):
        return False
    own_text = _fields_without_fallback(type(page))
    if not own_text or all(is_blank(getattr(page, f"{name}_{SOURCE_LANGUAGE}", None)) for name in own_text):
        return True
    return any(not is_blank(getattr(page, f"{name}_{language}", None)) for name in own_text)


def translated_url(page, language, request=None):
    """The page's path in `language` (its translated slug under the /<language>/ prefix)."""
    with translation.override(language):
        return page.get_url(request)


def language_versions(page, request):
    """[(language code, absolute URL)] for each language version the page has, in settings order."""
    versions = []
    for code, _name in settings.LANGUAGES:
        if has_language_version(page, code):
            url = translated_url(page, code, request)
            if url:
                versions.append((code, request.build_absolute_uri(url)))
    return versions
