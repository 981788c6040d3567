"""/robots.txt: crawlers may read the articles, not the admin, and learn where the sitemap is."""

from django.http import HttpResponse
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET


@require_GET
@cache_control(public=True, max_age=86400)
def robots_txt(request):
    # The sitemap's address must be absolute (robots.txt protocol); the host is the one asked.
    lines = [
        "User-agent: *",
        "Disallow: /admin/",
        "",
        f"Sitemap: {request.build_absolute_uri(reverse('sitemap'))}",
        "",
    ]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")
