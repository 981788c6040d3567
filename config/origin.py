"""Writes the request's origin where a page printed articles.addresses.ORIGIN_SLOT (why: that module)."""

from articles.addresses import ORIGIN_SLOT

SLOT = ORIGIN_SLOT.encode()


class OriginMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if getattr(response, "streaming", False):
            return response
        if hasattr(response, "render") and callable(response.render) and not response.is_rendered:
            response.render()
        content = response.content
        if SLOT in content:
            response.content = content.replace(SLOT, f"{request.scheme}://{request.get_host()}".encode())
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response
