"""Search engines find /robots.txt (it was a 404), and it leads them to the sitemap."""

from urllib.parse import urlsplit

import pytest

from .bilingual_pages import build_small_site


@pytest.fixture
def small_site(db):
    return build_small_site()


def test_robots_txt_points_at_the_sitemap_and_keeps_crawlers_out_of_the_admin(client, small_site):
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert "User-agent: *" in lines and "Disallow: /admin/" in lines
    sitemaps = [line.split(":", 1)[1].strip() for line in lines if line.startswith("Sitemap:")]
    assert sitemaps == ["http://testserver/sitemap.xml"]
    # The address it gives answers with the sitemap.
    sitemap = client.get(urlsplit(sitemaps[0]).path)
    assert sitemap.status_code == 200 and b"<urlset" in sitemap.content
