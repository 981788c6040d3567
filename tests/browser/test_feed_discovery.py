"""A feed reader finds the Atom feeds the way a browser does, through the page's
<link rel="alternate" type="application/atom+xml">: the site's and the article's, in English and in
Spanish. Each parses (feedparser), speaks the page's language and, after a correction, lists it
with a link that opens the change log at the entry."""

from decimal import Decimal

import feedparser
import pytest
from playwright.sync_api import expect

from .test_change_log import ARTICLE, NOTE, correct_speed

pytestmark = pytest.mark.browser

TITLES = {
    "en": {"site": "Figure changes on LLM API Benchmarks", "article": "Figure changes: ", "entry": "Correction: "},
    "es": {"site": "Cambios de cifras en Benchmarks de APIs de LLM", "article": "Cambios de cifras: ",
           "entry": "Corrección: "},
}
FEED_LINKS = 'head link[rel="alternate"][type="application/atom+xml"]'


def discovered_feeds(page):
    """{title: parsed feed} for each feed the page's head advertises, fetched as the browser would."""
    feeds = {}
    for link in page.locator(FEED_LINKS).evaluate_all("links => links.map(link => [link.title, link.href])"):
        title, href = link
        response = page.request.get(href)
        assert response.ok, href
        assert response.headers["content-type"].startswith("application/atom+xml"), href
        feed = feedparser.parse(response.body())
        assert feed.bozo == 0, (href, feed.get("bozo_exception"))
        assert feed.version == "atom10", href
        feeds[title] = feed
    return feeds


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_page_advertises_its_feeds_and_they_parse_in_its_language(page, lang):
    _correction, old, new = correct_speed("baseten", "Fast", Decimal("-143.4"), NOTE)
    titles = TITLES[lang]

    assert page.goto(ARTICLE[lang]).ok
    article_title = page.locator("h1").inner_text()
    feeds = discovered_feeds(page)
    assert set(feeds) == {titles["site"], titles["article"] + article_title}
    site, article = feeds[titles["site"]], feeds[titles["article"] + article_title]
    assert site.feed.language == article.feed.language == lang

    newest = article.entries[0]
    assert newest.title.startswith(titles["entry"]) and article_title in newest.title
    assert NOTE in newest.summary and f"{old} → {new}" in newest.summary
    assert newest.id.startswith("urn:uuid:")
    assert newest.id in [entry.id for entry in site.entries], "the same entry in the site's feed"

    # Every entry's link opens a page of the change log holding the entry's anchor.
    for entry in article.entries + site.entries:
        assert page.request.get(entry.link).ok, entry.link
        page.goto(entry.link)
        anchor = entry.link.rsplit("#", 1)[1]
        expect(page.locator(f"tbody#{anchor}.change-set")).to_have_count(1)
    page.goto(ARTICLE[lang])
    page.goto(newest.link)
    expect(page.locator(f"tbody#{newest.link.rsplit('#', 1)[1]}")).to_contain_text(NOTE)
    expect(page.locator(f"tbody#{newest.link.rsplit('#', 1)[1]}")).to_be_in_viewport()

    # The change log advertises the same feeds.
    assert set(discovered_feeds(page)) == set(feeds)
