"""The admin's exception to the Content-Security-Policy.

Wagtail 8.0's admin still writes inline <script> elements for its widgets (date and snippet
choosers, InlinePanel) and wagtail-modeltranslation adds one to every edit form, without nonces;
the rich-text editor inserts <style> elements. So under /admin/ (behind a login, never cached)
scripts and style elements may also be inline; the public pages keep `script-src 'self'` and
`style-src 'self'`: no inline or injected script or style element takes effect there.
"""

ADMIN_UPDATE = {"script-src": ["'unsafe-inline'"], "style-src": ["'unsafe-inline'"]}


class AdminPolicyMiddleware:
    """Listed after django-csp's CSPMiddleware, so it marks the response before the header is built."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith("/admin/"):
            response._csp_update = ADMIN_UPDATE
        return response
