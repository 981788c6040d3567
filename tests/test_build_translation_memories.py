"""`build_translation_memories`: an installation from before the workspace gets a memory for every
translated object and live Spanish rebuilt from it, without new revisions; a second run changes nothing."""

import io

import pytest
from django.core.management import call_command
from django.utils import timezone
from wagtail.models import Page, Revision

from articles.models import ArticlePage
from benchmarks.models import Provider, Source
from editorial.models import ApprovedSegment, TranslationMemory
from editorial.spanish import memory_for

from .bilingual_pages import build_small_site, paragraphs, publish_article


def _build():
    out = io.StringIO()
    call_command("build_translation_memories", stdout=out)
    return out.getvalue()


def _body(page, language):
    return [(block["id"], block["value"]) for block in getattr(page, f"body_{language}").raw_data]


@pytest.fixture
def legacy_site(db):
    """Pages and a provider whose Spanish was written by hand, before translation memories existed."""
    home = build_small_site()
    article = publish_article(
        home, "two", "dos", title_en="Two paragraphs", title_es="Dos párrafos",
        body_en=paragraphs("First.", "Second."),
    )
    Provider.objects.create(name="Acme", slug="acme", description_en="Fast GPUs.", description_es="GPU rápidas.")
    TranslationMemory.objects.all().delete()
    guide = ArticlePage.objects.get(slug_en="guide")
    # Hand-written Spanish bodies: their own block ids, and here one block fewer than the English.
    ArticlePage.objects.filter(pk=guide.pk).update(body_es=paragraphs("Cada cifra tiene una fuente."))
    ArticlePage.objects.filter(pk=article.pk).update(body_es=paragraphs("Primero."))
    return guide, article


def test_memories_are_built_and_live_spanish_is_derived_without_a_revision(legacy_site):
    guide, article = legacy_site
    revisions = Revision.objects.count()
    objects = Page.objects.filter(depth__gt=1).count() + Provider.objects.count() + Source.objects.count()

    out = _build()
    assert f"objects: {objects}; translation memories created: {objects}; live Spanish rewritten: 2;" in out
    assert TranslationMemory.objects.count() == objects
    assert Revision.objects.count() == revisions

    guide = ArticlePage.objects.get(pk=guide.pk)
    (english_id, _text), = _body(guide, "en")
    assert _body(guide, "es") == [(english_id, "<p>Cada cifra tiene una fuente.</p>")]
    article = ArticlePage.objects.get(pk=article.pk)
    first, second = (block_id for block_id, _text in _body(article, "en"))
    # The second paragraph has no Spanish yet: Spanish readers see its English.
    assert _body(article, "es") == [(first, "<p>Primero.</p>"), (second, "<p>Second.</p>")]
    assert (article.title_es, article.slug_es) == ("Dos párrafos", "dos")
    assert Provider.objects.get(slug="acme").description_es == "GPU rápidas."

    out = _build()
    assert "translation memories created: 0; live Spanish rewritten: 0;" in out
    assert _body(ArticlePage.objects.get(pk=article.pk), "es") == [(first, "<p>Primero.</p>"), (second, "<p>Second.</p>")]
    assert ApprovedSegment.objects.filter(memory=memory_for(article)).count() == 3  # title, slug, first paragraph


def test_spanish_approved_after_the_last_publication_stays_unpublished(legacy_site, django_user_model):
    guide, _article = legacy_site
    editor = django_user_model.objects.create_user("editor-x", "x@example.com", "pw-not-used-123")
    # An editor approved a new summary "into the draft only": it goes live with the next publication.
    ApprovedSegment.objects.filter(memory=memory_for(guide), key="summary").update(
        text="Un resumen nuevo.", approved_by=editor, approved_at=timezone.now()
    )
    out = _build()
    assert "held back (Spanish approved after the last publication): 1" in out
    guide = ArticlePage.objects.get(pk=guide.pk)
    assert guide.summary_es == "Qué significa cada columna."
    # Untouched: still the hand-written body (without block ids), not one derived from the English.
    assert [block.get("id") for block in guide.body_es.raw_data] == [None]
