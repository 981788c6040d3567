"""`X-Article-Render: stored|live` (articles/prerender.py) is on every article response that did not
come from the page cache, as the README says: a page-cache miss passes it on, a hit does not carry it
(the copy was made by an earlier request, so the header would describe that one)."""

import pytest
from django.core.cache import cache

from articles.prerender import HEADER

pytestmark = pytest.mark.django_db

ARTICLE = "/en/glm-5-3-flash-providers/"
URLS = [ARTICLE, ARTICLE + "data/", ARTICLE + "data/csv/", "/es/api-llm-mas-rapida/"]


@pytest.mark.parametrize("accept_encoding", ["", "gzip"])
def test_a_page_cache_miss_says_how_the_article_was_rendered_and_a_hit_does_not(client, demo_site,
                                                                                 accept_encoding):
    cache.clear()
    headers = {"accept-encoding": accept_encoding} if accept_encoding else {}
    for url in URLS:
        miss = client.get(url, headers=headers)
        assert (miss.status_code, miss["X-Page-Cache"]) == (200, "miss"), url
        assert miss.get(HEADER) in {"stored", "live"}, (url, dict(miss.items()))

        hit = client.get(url, headers=headers)
        assert hit["X-Page-Cache"] == "hit", url
        assert HEADER not in hit, url
