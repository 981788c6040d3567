from modeltranslation.decorators import register
from modeltranslation.translator import TranslationOptions

from .models import ArticleIndexPage, ArticlePage, HomePage


@register(HomePage)
class HomePageTR(TranslationOptions):
    fields = ("intro",)


@register(ArticlePage)
class ArticlePageTR(TranslationOptions):
    fields = ("summary", "body", "publisher_disclosure")
    # Article text never silently shows English on /es/: an untranslated body is a visible gap.
    fallback_languages = {"default": ()}


@register(ArticleIndexPage)
class ArticleIndexPageTR(TranslationOptions):
    fields = ("intro",)
