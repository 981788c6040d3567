"""What the workspace and approval tests share: the small site's article and a translator and an
editor, each logged in in their own client."""

import pytest
from django.core.cache import cache

from articles.models import ArticlePage
from editorial.roles import EDITORS, TRANSLATORS

from ..bilingual_pages import build_small_site
from ..workspace_support import logged_in, member


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


@pytest.fixture
def guide(db):
    """The small site's article: title "Reading the tables", one paragraph, Spanish approved."""
    build_small_site()
    return ArticlePage.objects.get(slug_en="guide")


@pytest.fixture
def translator_user(django_user_model):
    return member(django_user_model, "traductora", TRANSLATORS)


@pytest.fixture
def editor_user(django_user_model):
    return member(django_user_model, "editora", EDITORS)


@pytest.fixture
def translator(translator_user):
    return logged_in(translator_user)


@pytest.fixture
def editor(editor_user):
    return logged_in(editor_user)
