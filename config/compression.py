"""Gzip for pages read anonymously, never for pages of a logged-in session.

BREACH: compressing a response that holds a secret (the CSRF token of a form, anything of a logged-in
user) next to text an attacker can inject lets the attacker guess the secret from response sizes.
Pages for anonymous readers hold no secret (a response that sets a cookie, such as a CSRF token, is
left alone too), and the admin is never compressed. The page cache keeps its own gzip copy, so this
middleware only works on pages it does not cache (404s, the sitemap, redirects).
"""

from django.conf import settings
from django.middleware.gzip import GZipMiddleware


class AnonymousGZipMiddleware(GZipMiddleware):
    def process_response(self, request, response):
        if (
            settings.SESSION_COOKIE_NAME in request.COOKIES
            or request.path.startswith("/admin/")
            or response.cookies
        ):
            return response
        return super().process_response(request, response)
