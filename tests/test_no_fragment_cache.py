"""Articles have no template fragment cache (issue 28: stored renderings follow their dependencies,
so fragments were redundant, docs/caching.md). A render in the request is always of the current
state, including what the page generation covers and the data generation did not: the address of
a page the article links to."""

import pytest
from django.core.cache import cache

from articles.models import ArticlePage
from tests.figures_support import make_article, paragraph

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def test_an_article_links_to_the_new_address_of_a_page_that_moved(client, settings):
    settings.ARTICLE_PRERENDER = False  # every request renders the article
    target = make_article([paragraph("<p>Target.</p>")], title="Target page")
    article = make_article([paragraph(f'<p>See <a linktype="page" id="{target.pk}">the target</a>.</p>')])
    old_url = target.url
    assert f'href="{old_url}"' in client.get(article.url).text

    target = ArticlePage.objects.get(pk=target.pk)
    target.slug_en = "target-moved"
    target.save_revision().publish()
    html = client.get(article.url).text
    assert 'href="/en/target-moved/"' in html and f'href="{old_url}"' not in html

