"""Every page type's rule for a language it has no version in: not served there (404).

An article has a Spanish version once its body has Spanish (ArticlePage.has_body_in); any other
page (the home page, an article index) once it has a Spanish title of its own. Serving the English
title under /es/ would show an English page at a Spanish address, listed nowhere in Spanish and
advertised nowhere (localized.alternates gives hreflang, the sitemap and the switcher the same rule).
Previews still render: the editor may be looking at the page before its Spanish exists.
"""

from django.http import Http404
from django.utils import translation

from localized.alternates import has_language_version


class LanguageVersionMixin:
    def has_version_in(self, language):
        return has_language_version(self, language)

    def serve(self, request, *args, **kwargs):
        language = (translation.get_language() or "en")[:2]
        if not getattr(request, "is_preview", False) and not self.has_version_in(language):
            raise Http404("no version of this page in this language")
        return super().serve(request, *args, **kwargs)
