"""Template tags for hreflang alternates, the language switcher (work in previews too) and fallen-back text."""

from django import template
from django.utils.html import format_html
from django.utils.translation import get_language

from localized.alternates import language_versions, translated_url
from localized.tracking import SOURCE_LANGUAGE, is_blank

register = template.Library()


@register.simple_tag(takes_context=True)
def page_url_in(context, page, language):
    """The page's URL in `language`; the language's home when the page has no URL (e.g. an unsaved preview)
    or no version in that language (it is not served there: articles.language_version)."""
    paths = context.get("language_paths")  # a sub-page (the data page) names its own version in each language
    if paths and language in paths:
        return paths[language]
    has_version_in = getattr(page, "has_version_in", None)
    if has_version_in is not None and not has_version_in(language):
        return f"/{language}/"
    return translated_url(page, language, context.get("request")) or f"/{language}/"


@register.simple_tag(takes_context=True)
def page_language_versions(context, page):
    request = context.get("request")
    if request is None or page is None:
        return []
    return [{"language": code, "url": url} for code, url in language_versions(page, request)]


@register.simple_tag
def in_its_language(obj, field):
    """`obj.<field>` in a <span> that says lang="en" when it fell back to English (see fallback_lang), for
    a value printed inside a sentence: ``{% in_its_language source "title" as title %}``."""
    lang = fallback_lang(obj, field)
    value = getattr(obj, field, "")
    return format_html("<span{}>{}</span>", lang, value) if lang else value


@register.simple_tag
def fallback_lang(obj, field):
    """` lang="en"` when `obj.<field>` shows the English text because the current language has none.

    Lets screen readers pronounce a fallen-back data line (a provider description, a source title) as
    English: ``<p{% fallback_lang provider "description" %}>{{ provider.description }}</p>``.
    """
    language = get_language()
    if obj is None or language == SOURCE_LANGUAGE or not is_blank(getattr(obj, f"{field}_{language}", "")):
        return ""
    if is_blank(getattr(obj, f"{field}_{SOURCE_LANGUAGE}", None)):
        return ""
    return format_html(' lang="{}"', SOURCE_LANGUAGE)
