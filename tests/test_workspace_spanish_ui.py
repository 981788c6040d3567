"""A Spanish-speaking translator and editor work in the workspace with no English interface text.

English content is expected there (the source column, marked lang="en"); interface strings are not.
The English strings come from the catalog, as in test_i18n_catalog.
"""

import re

import pytest
from django.contrib.auth.models import Group
from wagtail.users.models import UserProfile

from articles.models import ArticlePage
from editorial.roles import EDITORS, TRANSLATORS

from .po_catalog import read_po
from .test_i18n_catalog import (
    PO,
    english_interface_strings,
    english_leaks,
    fallen_back_data,
    perceived_text,
    without,
)
from .workspace_support import review_url, workspace_url


def spanish_speaking(django_user_model, username, group):
    user = django_user_model.objects.create_user(username, f"{username}@example.com", "pw-not-used-123")
    user.groups.add(Group.objects.get(name=group))
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "es"
    profile.save()
    return user


def admin_text(client, url, part="main"):
    """What a reader perceives of our part of an admin page (Wagtail's own chrome is Wagtail's catalog),
    minus the data that legitimately falls back to English (untranslated source titles)."""
    from bs4 import BeautifulSoup

    response = client.get(url)
    assert response.status_code == 200, url
    assert re.search(r'<html lang="es"', response.text), url
    ours = BeautifulSoup(response.text, "html.parser").select_one(part)
    assert ours is not None, (url, part)
    return without(perceived_text(str(ours), "es"), fallen_back_data())


@pytest.mark.django_db
def test_workspace_status_and_review_speak_spanish(client, demo_site, django_user_model):
    strings = english_interface_strings(read_po(PO))
    article = ArticlePage.objects.get(slug_en="fastest-llm-api")
    translator = spanish_speaking(django_user_model, "traductora", TRANSLATORS)
    editor = spanish_speaking(django_user_model, "editora", EDITORS)

    client.force_login(translator)
    rows = client.get(workspace_url(article)).text
    seen = re.search(r'name="seen-0" value="(\w+)"', rows).group(1)
    response = client.post(workspace_url(article), {"text-0": "Un título nuevo", "seen-0": seen, "action": "submit"})
    assert response.status_code == 302
    leaks = {}
    for url in ("/admin/translation-status/", workspace_url(article), workspace_url(article) + "?status=missing"):
        found = english_leaks(admin_text(client, url), strings)
        if found:
            leaks[url] = found

    client.force_login(editor)
    for url, part in (("/admin/", "section.translations-awaiting-review"), (review_url(article), "main")):
        found = english_leaks(admin_text(client, url, part), strings)
        if found:
            leaks[url] = found
    assert not leaks, f"English interface strings in the Spanish admin: {leaks}"
