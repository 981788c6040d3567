"""Opening the article editor packs the body's block definitions (~200 KB of JSON) once per process and
interface language, not once per request (issue 28: the edit view within 1.5x stock Wagtail); what
the browser receives is Wagtail's own packing, in the editor's language."""

import html
import re

import pytest
from wagtail.admin.telepath import JSContext
from wagtail.blocks import StreamBlock
from wagtail.blocks.base import BlockWidget
from wagtail.users.models import UserProfile

from articles import block_definitions
from articles.models import ArticlePage

pytestmark = pytest.mark.django_db


@pytest.fixture
def packs(monkeypatch):
    """How many times a whole block tree was packed (Wagtail's BlockWidget packs it with JSContext.pack)."""
    calls = []
    original = JSContext.pack

    def counting(self, obj):
        if isinstance(obj, StreamBlock):
            calls.append(obj)
        return original(self, obj)

    monkeypatch.setattr(JSContext, "pack", counting)
    monkeypatch.setattr(block_definitions, "_packed", {})
    return calls


def same_up_to_draft_keys(packed):
    """Default values carry list-item ids and Draftail block keys that Wagtail draws at random on each
    packing."""
    packed = re.sub(r'"id": "[0-9a-f-]{36}"', "ID", packed)
    return re.sub(r'\\"key\\": \\"[a-z0-9]+\\"', "KEY", packed)


def definitions_in(response):
    found = re.findall(r'data-w-block-data-value="([^"]*)"', response.content.decode())
    assert len(found) == 1, "the article body is the form's one StreamField"
    return same_up_to_draft_keys(html.unescape(found[0]))


def wagtails_own_packing(language):
    from django.utils import translation

    with translation.override(language):
        return same_up_to_draft_keys(BlockWidget(ArticlePage._meta.get_field("body_en").stream_block).block_json)


def test_the_edit_view_packs_the_body_definitions_once(demo_site, editor_client, packs):
    page = ArticlePage.objects.get(slug="fastest-llm-api")
    url = f"/admin/pages/{page.pk}/edit/"

    first = editor_client.get(url)
    assert first.status_code == 200
    packed_by_first = len(packs)
    assert packed_by_first >= 1
    second = editor_client.get(url)
    assert second.status_code == 200
    assert len(packs) == packed_by_first, "the second opening packed the block tree again"
    assert definitions_in(second) == definitions_in(first) == wagtails_own_packing("en")
    # The editor's scripts and styles still come with the form (they are part of the packing).
    assert "wagtailadmin/js/telepath/blocks.js" in second.content.decode()


def test_each_interface_language_gets_its_own_labels(demo_site, editor_client, django_user_model, packs):
    page = ArticlePage.objects.get(slug="fastest-llm-api")
    url = f"/admin/pages/{page.pk}/edit/"
    english = definitions_in(editor_client.get(url))

    user = django_user_model.objects.get(username="editor")
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "es"
    profile.save()
    spanish = definitions_in(editor_client.get(url))

    assert spanish == wagtails_own_packing("es")
    assert english == wagtails_own_packing("en")
    assert spanish != english
    assert "Tabla de proveedores" in spanish and "Provider table" in english

    profile.preferred_language = "en"
    profile.save()
    assert definitions_in(editor_client.get(url)) == english
