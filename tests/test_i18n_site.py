"""Language plumbing a reader and a search engine see: <html lang>, hreflang, sitemap, switcher, fallbacks."""

import re
import xml.etree.ElementTree as ET

import pytest
from django.utils import translation
from wagtail.models import Page

from benchmarks.models import Provider, Source

from .bilingual_pages import build_small_site, paragraphs, publish_article
from .workspace_support import approve_spanish, segment_key

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"


@pytest.fixture
def small_site(db):
    return build_small_site()


@pytest.fixture
def english_only(small_site):
    return publish_article(small_site, "english-only", title_en="English only", body_en=paragraphs("Text."))


def _url(page, language):
    with translation.override(language):
        return page.get_url()


def _sitemap(client):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/xml")
    entries = {}
    for url in ET.fromstring(response.content).iter(f"{SITEMAP}url"):
        alternates = {link.get("hreflang"): link.get("href") for link in url.iter(f"{XHTML}link")}
        entries[url.find(f"{SITEMAP}loc").text] = alternates
    return entries


def test_sitemap_lists_every_live_page_in_both_languages_with_alternates(client, small_site):
    draft = publish_article(small_site, "draft", title_en="Draft", title_es="Borrador")
    draft.unpublish()
    entries = _sitemap(client)
    live = Page.objects.live().filter(depth__gt=1).specific()
    assert live.count() == 2
    for page in live:
        en, es = (f"http://testserver{_url(page, lang)}" for lang in ("en", "es"))
        assert es != en and "/es/" in es
        for location in (en, es):
            assert entries[location] == {"en": en, "es": es, "x-default": en}
    assert len(entries) == 4
    assert not any("draft" in location or "borrador" in location for location in entries)


def test_sitemap_leaves_out_a_spanish_version_that_has_no_spanish_text(client, english_only):
    entries = _sitemap(client)
    en = f"http://testserver{_url(english_only, 'en')}"
    assert entries[en] == {"en": en}
    assert not any(location.endswith("/english-only/") and "/es/" in location for location in entries)


@pytest.mark.parametrize("extra_pages", [1, 8])
def test_sitemap_query_count_does_not_grow_with_pages(
    client, small_site, django_assert_max_num_queries, extra_pages
):
    for i in range(extra_pages):
        publish_article(small_site, f"extra-{i}", f"extra-es-{i}", title_en=f"E{i}", title_es=f"S{i}",
                        body_en=paragraphs("Text."), body_es=paragraphs("Texto."))
    client.get("/sitemap.xml")
    with django_assert_max_num_queries(6):
        entries = _sitemap(client)
    assert len(entries) == 2 * (2 + extra_pages)


def test_html_lang_and_hreflang_on_every_page(client, small_site, english_only):
    for page in Page.objects.live().filter(depth__gt=1).specific():
        for language in ("en", "es"):
            response = client.get(_url(page, language))
            if page.pk == english_only.pk and language == "es":
                assert response.status_code == 404  # no Spanish body: no Spanish version
                continue
            assert response.status_code == 200
            assert f'<html lang="{language}">' in response.text
            head = response.text.split("</head>")[0]
            alternates = dict(re.findall(r'<link rel="alternate" hreflang="([\w-]+)" href="([^"]+)"', head))
            expected = {
                "en": f"http://testserver{_url(page, 'en')}",
                "x-default": f"http://testserver{_url(page, 'en')}",
            }
            if page.pk != english_only.pk:
                expected["es"] = f"http://testserver{_url(page, 'es')}"
            assert alternates == expected


def test_not_found_page_speaks_the_language_of_its_address(client, small_site):
    es = client.get("/es/no-existe/")
    assert es.status_code == 404
    assert '<html lang="es">' in es.text and "Not Found" not in es.text
    en = client.get("/en/does-not-exist/")
    assert en.status_code == 404 and '<html lang="en">' in en.text


def _switcher(html):
    return re.search(r'<nav class="language-switcher".*?</nav>', html, re.S).group(0)


def test_switcher_maps_to_the_translated_slug_and_back(client, small_site):
    assert 'href="/es/guia/"' in _switcher(client.get("/en/guide/").text)
    assert 'href="/en/guide/"' in _switcher(client.get("/es/guia/").text)
    assert 'href="/es/"' in _switcher(client.get("/en/").text)


# --- fallback rules documented in docs/translation.md -------------------------------------------


def test_page_title_and_slug_fall_back_to_english(client, small_site):
    page = publish_article(
        small_site, "no-spanish-title", title_en="Only English title", body_en=paragraphs("Hello.")
    )
    # Only the body is translated (approved in the workspace): no Spanish title, no Spanish slug.
    approve_spanish(page, {segment_key(page, "Hello."): "<p>Hola.</p>"})
    page.refresh_from_db()
    assert _url(page, "es") == "/es/no-spanish-title/"
    response = client.get("/es/no-spanish-title/")
    assert response.status_code == 200
    assert '<h1 lang="en">Only English title</h1>' in response.text and "Hola." in response.text


def test_article_summary_and_body_stay_empty_in_spanish(client, small_site):
    publish_article(
        small_site,
        "english-body",
        "cuerpo-ingles",
        title_en="English body",
        title_es="Cuerpo en inglés",
        summary_en="An English summary.",
        body_en=paragraphs("An English paragraph."),
    )
    # Without a Spanish body there is no Spanish version: not served, not listed, not advertised.
    assert client.get("/es/cuerpo-ingles/").status_code == 404
    assert client.get("/es/cuerpo-ingles/data/").status_code == 404
    assert "Cuerpo en inglés" not in client.get("/es/").text
    en = client.get("/en/english-body/").text
    assert "An English summary." in en and "An English paragraph." in en
    head = en.split("</head>")[0]
    assert '<link rel="alternate" hreflang="es"' not in head and 'hreflang="en"' in head
    assert 'href="/es/" hreflang="es"' in en  # the switcher leads to the Spanish home, not to a 404
    assert "English body" in client.get("/en/").text


def test_data_descriptions_fall_back_to_english(db):
    provider = Provider.objects.create(name="Acme", slug="acme", description_en="Fast GPUs.")
    source = Source.objects.create(
        title_en="Provider benchmarks", attribution_en="Data: AA", publisher="AA", url="https://example.com/"
    )
    with translation.override("es"):
        provider.refresh_from_db()
        source.refresh_from_db()
        assert provider.description == "Fast GPUs."
        assert (source.title, source.attribution) == ("Provider benchmarks", "Data: AA")
        provider.description_es = "GPU rápidas."
        assert provider.description == "GPU rápidas."


def test_home_intro_falls_back_to_english(client, small_site):
    home = Page.objects.get(pk=small_site.pk).specific
    assert "Qué proveedor sirve cada modelo" in client.get("/es/").text
    # The approved Spanish intro is withdrawn (a translator empties it, an editor approves).
    approve_spanish(home, {"intro": ""})
    assert not Page.objects.get(pk=home.pk).specific.intro_es
    spanish = client.get("/es/").text
    assert "Which host serves a model fastest" in spanish and "Qué proveedor sirve cada modelo" not in spanish


@pytest.mark.parametrize(
    ("mode", "title"), [("en", "LLM API benchmarks"), ("es", "Benchmarks de APIs de LLM")]
)
def test_admin_preview_has_the_language_of_its_mode(admin_client, small_site, mode, title):
    from django.urls import reverse

    from .admin_forms import form_data

    page = small_site
    edit = admin_client.get(reverse("wagtailadmin_pages:edit", args=[page.pk]))
    preview_url = reverse("wagtailadmin_pages:preview_on_edit", args=[page.pk])
    assert admin_client.post(preview_url, form_data(edit.text, "page-edit-form")).json()["is_valid"]
    response = admin_client.get(preview_url, {"mode": mode})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{mode}">' in html and f"<h1>{title}</h1>" in html
    head = html.split("</head>")[0]
    # Alternates point at the public addresses (on the site's host, as the preview request has it),
    # not at the admin preview URL.
    assert re.search(r'hreflang="es" href="http://[^"/]+/es/"', head)
    assert re.search(r'hreflang="en" href="http://[^"/]+/en/"', head)
    other = "es" if mode == "en" else "en"
    assert f'hreflang="{other}"' in _switcher(html)
