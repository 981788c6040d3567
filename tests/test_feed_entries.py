"""Atom entries a feed reader can keep: ids that are the same whatever host the feed was fetched from,
and links that open the page of the change log that lists the entry, where its anchor is."""

from urllib.parse import urlsplit

import pytest

from tests.figures_support import glm_data, make_article, publish_new_snapshot, table
from tests.test_change_log import add_changes, empty_own_cache, english_url, parsed, spanish_url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    empty_own_cache()


@pytest.fixture
def three_publications():
    """An article whose log runs to three pages: newest set rows 1–50, the middle one 51–110, the oldest 111–120."""
    glm = glm_data()
    article = make_article([table(glm)], title="GLM page")
    sets = []
    for hours, rows in ((1, 10), (2, 60), (3, 50)):
        snapshot = publish_new_snapshot(glm, hours_later=hours)
        for language in ("en", "es"):
            add_changes(article, snapshot, rows, language)
        sets.append(snapshot.review_change_set)
    oldest, middle, newest = sets
    return article, {newest.pk: "", middle.pk: "?page=2", oldest.pk: "?page=3"}


def feed_from(client, path, host):
    return parsed(client.get(path, HTTP_HOST=host))


@pytest.mark.parametrize("language", ["en", "es"])
def test_each_entry_links_to_the_page_of_the_log_that_lists_it(without_page_cache, client, three_publications,
                                                               language):
    article, pages = three_publications
    log = {"en": english_url(article) + "changes/", "es": spanish_url(article) + "cambios/"}[language]
    site_feed = {"en": "/en/changes/feed/", "es": "/es/cambios/feed/"}[language]

    for feed_path in (log + "feed/", site_feed):
        feed = parsed(client.get(feed_path))
        assert len(feed.entries) == 3
        for entry in feed.entries:
            link = urlsplit(entry.link)
            change_set = int(link.fragment.removeprefix("change-"))
            assert link.path == log and (f"?{link.query}" if link.query else "") == pages[change_set], entry.link
            response = client.get(f"{link.path}?{link.query}" if link.query else link.path)
            assert response.status_code == 200, entry.link
            assert f'<tbody id="{link.fragment}" class="change-set">' in response.text, (
                f"{entry.link}: the page the entry links to holds its anchor"
            )


def test_entry_and_feed_ids_are_permanent_urns_whatever_the_host(without_page_cache, client, three_publications):
    article, _pages = three_publications
    ids = {}
    for language, path in (
        ("en", english_url(article) + "changes/feed/"), ("es", spanish_url(article) + "cambios/feed/"),
        ("en", "/en/changes/feed/"), ("es", "/es/cambios/feed/"),
    ):
        here = feed_from(client, path, "127.0.0.1:8725")
        there = feed_from(client, path, "benchmarks.example.org")
        assert here.entries[0].link.startswith("http://127.0.0.1:8725/")
        assert there.entries[0].link.startswith("http://benchmarks.example.org/"), "links do follow the host"
        assert [entry.id for entry in here.entries] == [entry.id for entry in there.entries], path
        assert here.feed.id == there.feed.id, path
        for entry_id in [entry.id for entry in here.entries] + [here.feed.id]:
            assert entry_id.startswith("urn:uuid:") and "127.0.0.1" not in entry_id, entry_id
        ids.setdefault(language, []).append([entry.id for entry in here.entries])

    for language, (article_ids, site_ids) in ids.items():
        assert article_ids == site_ids, f"{language}: one publication on one page is one entry in either feed"
        assert len(set(article_ids)) == 3
    assert not set(ids["en"][0]) & set(ids["es"][0]), "each language's entry is an entry of its own"
