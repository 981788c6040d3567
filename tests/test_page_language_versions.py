"""Every page type follows the article rule: without a Spanish version there is no /es/ page, and
no hreflang, sitemap entry or switcher link points at one."""

import pytest

from .bilingual_pages import build_small_site
from .workspace_support import approve_spanish


@pytest.fixture
def small_site(db):
    return build_small_site()


def english_only_index(home):
    from articles.models import ArticleIndexPage

    index = ArticleIndexPage(title_en="Benchmark notes", slug_en="notes", intro_en="<p>Short notes.</p>")
    home.add_child(instance=index)
    index.save_revision().publish()
    return ArticleIndexPage.objects.get(pk=index.pk)


def _head(response):
    return response.text.split("</head>")[0]


def test_index_without_spanish_is_not_served_in_spanish(client, small_site):
    english_only_index(small_site)
    assert client.get("/es/notes/").status_code == 404
    en = client.get("/en/notes/")
    assert en.status_code == 200 and "<h1>Benchmark notes</h1>" in en.text
    head = _head(en)
    assert 'hreflang="es"' not in head and 'hreflang="en"' in head
    assert 'href="/es/notes/"' not in en.text  # the switcher leads to the Spanish home instead
    assert "/es/notes/" not in client.get("/sitemap.xml").text


def test_index_with_a_spanish_title_is_served_in_spanish(client, small_site):
    index = english_only_index(small_site)
    approve_spanish(index, {"title": "Notas de benchmarks", "slug": "notas"})
    es = client.get("/es/notas/")
    assert es.status_code == 200
    assert "<h1>Notas de benchmarks</h1>" in es.text and "Benchmark notes" not in es.text
    assert 'hreflang="es"' in _head(client.get("/en/notes/"))


def test_home_without_spanish_is_not_served_in_spanish(client, small_site):
    from articles.models import HomePage

    assert client.get("/es/").status_code == 200  # the demo home page has Spanish
    approve_spanish(HomePage.objects.get(), {"title": "", "intro": ""})
    assert client.get("/es/").status_code == 404
    assert client.get("/en/").status_code == 200
