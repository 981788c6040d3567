"""A changed slug, in either language, leaves the old addresses (the page and its data page)
answering with a permanent redirect to the new ones; the review shows a slug change as an address
change."""

import pytest
from django.core.cache import cache

from ..workspace_support import post_page_editor, review, review_url, translate

pytestmark = pytest.mark.django_db


def get(client, path):
    cache.clear()
    return client.get(path)


def assert_moved(client, old, new):
    response = get(client, old)
    assert (response.status_code, response.get("Location")) == (301, new), (old, response.status_code)
    assert get(client, new).status_code == 200, new


def test_a_spanish_slug_approved_in_the_workspace_redirects_the_old_spanish_addresses(
    client, guide, translator, editor
):
    assert get(client, "/es/guia/datos/").status_code == 200
    assert translate(translator, guide, {"slug": "guia-de-tablas"}, action="submit").status_code == 302

    page = editor.get(review_url(guide)).text
    assert "Address changes:" in page and "<code>/es/guia/</code> → <code>/es/guia-de-tablas/</code>" in page
    assert review(editor, guide, mode="publish").status_code == 302

    assert_moved(client, "/es/guia/", "/es/guia-de-tablas/")
    assert_moved(client, "/es/guia/datos/", "/es/guia-de-tablas/datos/")
    assert_moved(client, "/es/guia/datos/csv/", "/es/guia-de-tablas/datos/csv/")
    assert get(client, "/en/guide/").status_code == 200  # the English address did not change


def test_an_english_slug_changed_in_the_editor_redirects_the_old_english_addresses(client, guide, editor):
    assert post_page_editor(editor, guide, slug_en="table-guide").status_code == 302

    assert_moved(client, "/en/guide/", "/en/table-guide/")
    assert_moved(client, "/en/guide/data/", "/en/table-guide/data/")
    assert get(client, "/es/guia/").status_code == 200

    # Changed again: the first old address leads straight to the newest one.
    assert post_page_editor(editor, guide, slug_en="reading-tables").status_code == 302
    assert_moved(client, "/en/guide/", "/en/reading-tables/")
    assert_moved(client, "/en/table-guide/data/", "/en/reading-tables/data/")
