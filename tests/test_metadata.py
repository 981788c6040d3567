"""Pages describe themselves to search engines and link previews: canonical, description, Open Graph,
Twitter, a schema.org Dataset for each article's data; the home page title names the site once."""

import json
import re

from bs4 import BeautifulSoup
from django.utils.html import strip_tags


def head(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return BeautifulSoup(response.content, "html.parser")


def test_article_metadata_and_dataset(client, demo_site):
    from articles.models import ArticlePage

    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    soup = head(client, "/en/fastest-llm-api/")
    assert soup.select_one('link[rel="canonical"]')["href"].endswith("/en/fastest-llm-api/")
    description = soup.select_one('meta[name="description"]')["content"]
    # The summary's words (its statements all hold on the demo data), without the rich text's markup.
    assert description == strip_tags(page.summary_en).strip()[:300] and description.startswith("Which host")
    assert soup.select_one('meta[property="og:title"]')["content"] == page.title_en
    assert soup.select_one('meta[property="og:description"]')["content"] == description
    assert soup.select_one('meta[property="og:type"]')["content"] == "article"
    # The article has a chart: its PNG is the preview image (tests/test_og_image.py draws and serves it).
    assert soup.select_one('meta[name="twitter:card"]')["content"] == "summary_large_image"
    assert soup.select_one('meta[property="og:image"]')["content"].split("?v=")[0].endswith("/en/fastest-llm-api/og.png")
    assert soup.select_one('meta[name="twitter:title"]')["content"] == page.title_en
    datasets = [json.loads(s.string) for s in soup.select('script[type="application/ld+json"]')]
    dataset = next(d for d in datasets if d.get("@type") == "Dataset")
    assert dataset["name"] == page.title_en
    # Addresses a search engine can follow (tests/test_dataset_ld.py reads the whole Dataset).
    assert "https://artificialanalysis.ai/terms-of-use" in dataset["license"]
    assert {"Artificial Analysis", "Z.ai"} <= {creator["name"] for creator in dataset["creator"]}
    assert dataset["creator"][0]["url"].startswith("https://")

    spanish = head(client, "/es/api-llm-mas-rapida/")
    assert spanish.select_one('link[rel="canonical"]')["href"].endswith("/es/api-llm-mas-rapida/")
    assert spanish.select_one('meta[property="og:locale"]')["content"] == "es_ES"
    assert spanish.select_one('meta[name="description"]')["content"] == strip_tags(page.summary_es).strip()[:300]


def test_home_page_title_names_the_site_once(client, demo_site):
    title = head(client, "/en/").title.string
    assert len(re.findall("LLM API benchmarks", title, flags=re.IGNORECASE)) == 1, title
