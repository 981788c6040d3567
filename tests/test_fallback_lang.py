"""English shown on a Spanish page says it is English (lang="en"): an untranslated body block, a source
title or attribution kept in English, a page title without Spanish."""

import pytest
from bs4 import BeautifulSoup

from articles.models import ArticlePage

pytestmark = pytest.mark.django_db


def spanish_page(client, page):
    response = client.get(f"/es/{page.slug_es}/")
    assert response.status_code == 200
    return BeautifulSoup(response.text, "html.parser")


def test_english_fallback_text_on_a_spanish_page_is_marked_lang_en(client, demo_site, without_page_cache):
    article = ArticlePage.objects.get(slug_en="fastest-llm-api")
    page = article.get_latest_revision_as_object()
    body = page.body_en.get_prep_value()
    body.insert(1, {"type": "heading", "id": "7d1e3a52-0000-4000-8000-000000000001",
                    "value": {"text": "At a glance", "level": "h2", "anchor": ""}})
    page.body_en = body
    page.save_revision().publish()
    article.refresh_from_db()

    soup = spanish_page(client, article)
    assert soup.html["lang"] == "es"
    heading = soup.find(string="At a glance")
    assert heading is not None and heading.find_parent(attrs={"lang": True})["lang"] == "en"
    # Translated blocks keep the page's language.
    translated = soup.find(string="Velocidad de salida de GLM-5.3")
    assert translated.find_parent(attrs={"lang": True}).name == "html"
    # A source title with a Spanish version prints it; one without falls back to English and says so.
    from benchmarks.models import Source

    untranslated = Source.objects.filter(title_es__isnull=False).order_by("pk").first()
    Source.objects.filter(pk=untranslated.pk).update(title_es=None)
    soup = spanish_page(client, article)
    titles = soup.select("section.sources li span[lang]")
    assert [span.get_text() for span in titles] == [untranslated.title_en]
    assert {span["lang"] for span in titles} == {"en"}
    assert "proveedores de GLM-5.3" in soup.select_one("section.sources").get_text()
    attributions = soup.select("footer.attributions p")
    assert attributions and all(p.get("lang") == "en" for p in attributions if p.get_text().isascii())
