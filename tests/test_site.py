import re

import pytest


@pytest.mark.parametrize(("accept", "target"), [("es-ES,es;q=0.9", "/es/"), ("en-GB,en;q=0.8", "/en/")])
def test_root_redirects_by_browser_language(client, demo_site, accept, target):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 302
    assert response["Location"] == target


def test_home_pages_render_in_both_languages(client, demo_site):
    en = client.get("/en/")
    es = client.get("/es/")
    assert en.status_code == es.status_code == 200
    assert '<html lang="en">' in en.text and '<html lang="es">' in es.text
    assert "LLM API benchmarks" in en.text
    assert "Benchmarks de APIs de LLM" in es.text
    assert "Qué proveedor sirve cada modelo" in es.text


def test_article_renders_translated_fields(client, demo_site):
    en = client.get("/en/fastest-llm-api/")
    es = client.get("/es/api-llm-mas-rapida/")
    assert en.status_code == es.status_code == 200
    assert "Fastest LLM API" in en.text and "How to read these rankings" in en.text
    assert "La API de LLM más rápida" in es.text and "Cómo leer estas clasificaciones" in es.text
    assert "How to read these rankings" not in es.text


def test_language_switcher_keeps_reader_on_same_page(client, demo_site):
    en = client.get("/en/fastest-llm-api/")
    switch = re.search(r'<nav class="language-switcher".*?</nav>', en.text, re.S).group(0)
    assert 'href="/es/api-llm-mas-rapida/"' in switch
    es = client.get("/es/api-llm-mas-rapida/")
    switch = re.search(r'<nav class="language-switcher".*?</nav>', es.text, re.S).group(0)
    assert 'href="/en/fastest-llm-api/"' in switch


def test_hreflang_alternates_in_head(client, demo_site):
    head = client.get("/en/fastest-llm-api/").text.split("</head>")[0]
    assert re.search(r'hreflang="es" href="http://testserver/es/api-llm-mas-rapida/"', head)
    assert re.search(r'hreflang="en" href="http://testserver/en/fastest-llm-api/"', head)


def test_load_demo_twice_changes_nothing(db):
    from wagtail.models import Page, Revision

    from articles.demo import load_demo_site

    load_demo_site()
    counts = (Page.objects.count(), Revision.objects.count())
    load_demo_site()
    assert (Page.objects.count(), Revision.objects.count()) == counts


def test_admin_login_works(client, demo_site, django_user_model):
    django_user_model.objects.create_superuser("admin", "admin@example.com", "admin-dev-password")
    login = client.get("/admin/login/")
    assert login.status_code == 200
    response = client.post("/admin/login/", {"username": "admin", "password": "admin-dev-password"})
    assert response.status_code == 302
    dashboard = client.get("/admin/")
    assert dashboard.status_code == 200
    assert "Dashboard" in dashboard.text or "dashboard" in dashboard.text
