"""Our own absolute addresses on an article (the permanent address in "Cite this page", og:image, the
Dataset's url and downloads) name the origin the reader reached the site at, also when the page is
served from the rendering the pre-render task stored without a reader's request (under `make run` the
Site record says localhost:80 while the server answers on 127.0.0.1:8000: those addresses were dead)."""

import json
import re

import pytest
from django.core.cache import cache
from django.test import Client

from articles.addresses import ORIGIN_SLOT
from articles.tasks import prerender_due

pytestmark = pytest.mark.django_db


def addresses(html):
    cite = re.search(r'<a class="cite-url" href="([^"]+)"', html).group(1)
    image = re.search(r'<meta property="og:image" content="([^"]+)"', html).group(1)
    dataset = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S).group(1))
    downloads = [entry["contentUrl"] for entry in dataset["distribution"]]
    return [cite, image, dataset["url"], *downloads]


@pytest.mark.parametrize("prerendered", [True, False])
@pytest.mark.parametrize("host", ["127.0.0.1:8000", "benchmarks.example.org"])
def test_own_addresses_name_the_readers_origin(demo_site, settings, host, prerendered):
    cache.clear()
    settings.ARTICLE_PRERENDER = prerendered
    if prerendered:
        prerender_due()
    response = Client(HTTP_HOST=host).get("/es/api-llm-mas-rapida/")
    assert response["X-Article-Render"] == ("stored" if prerendered else "live")
    html = response.content.decode()
    assert ORIGIN_SLOT not in html
    found = addresses(html)
    assert all(address.startswith(f"http://{host}/es/api-llm-mas-rapida/") for address in found), found
    # Each of them answers on that origin.
    reader = Client(HTTP_HOST=host)
    for address in found:
        path = address.removeprefix(f"http://{host}")
        assert reader.get(path, follow=True).status_code == 200, address
