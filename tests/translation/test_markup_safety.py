"""Nothing a translator types can take over a reader's page: submitted rich text is read as a browser
reads it, refused with a reason when it holds markup outside the allow-list, and whatever reaches the
database or a page is what the allow-list serializer wrote (editorial.sanitize), never the typed text.

Each vector of tests/markup_safety.py goes through every path that stores Spanish rich text: the
workspace (refused, nothing stored), a draft stored by other means then approved, approved Spanish
stored before this check existed when the page is next published, and build_translation_memories."""

import pytest
from django.core.management import call_command

from articles.models import ArticlePage
from editorial import richtext_tokens, sanitize
from editorial.models import ApprovedSegment, DraftSegment, TranslationDraft
from editorial.spanish import memory_for

from ..figures_support import glm_data, ref_html
from ..markup_safety import ALLOWED, VECTORS, dangers, injected, shapes
from ..workspace_support import review, translate

pytestmark = pytest.mark.django_db

SPANISH_URL = "/es/guia/"


def body_key(page):
    return f"body/{page.body_en.raw_data[0]['id']}"


def typed(name):
    return f"<p>Cada cifra MARK-{name} tiene una fuente.</p>{VECTORS[name]}"


@pytest.mark.parametrize("name", sorted(VECTORS))
def test_the_serializer_writes_nothing_outside_the_allow_list(name):
    cleaned = sanitize.clean_fragment(typed(name))
    assert "MARK-" + name in cleaned
    assert not dangers(cleaned)
    for tag, attributes in shapes(cleaned) - shapes(""):
        assert tag in ALLOWED and attributes in ((), ("id",)), (tag, attributes, cleaned)
    # Idempotent: what is stored, cleaned again, is itself.
    assert sanitize.clean_fragment(cleaned) == cleaned


@pytest.mark.parametrize("name", sorted(VECTORS))
def test_each_vector_through_the_workspace_is_refused_or_stored_clean_and_the_page_stays_safe(
    client, guide, translator, editor, name
):
    """Submitted, then approved when the workspace took it: a browser reading the live page finds
    nothing the allow-list does not allow. A refusal names its reason and stores nothing."""
    baseline = client.get(SPANISH_URL).text
    response = translate(translator, guide, {body_key(guide): typed(name)}, action="submit")
    if response.status_code == 400:
        [row] = [row for row in response.context["rows"] if row.errors]
        assert row.key == body_key(guide) and row.errors
        assert not DraftSegment.objects.exists() and not TranslationDraft.objects.exists()
        assert client.get(SPANISH_URL).text == baseline
        return
    assert response.status_code == 302
    stored = DraftSegment.objects.get(key=body_key(guide)).text
    assert stored == sanitize.clean_fragment(typed(name)) and not dangers(stored)
    assert review(editor, guide).status_code == 302
    page = client.get(SPANISH_URL).text
    assert "MARK-" + name in page
    assert injected(page, baseline) == []


@pytest.mark.parametrize("name", ["comment-dash-gt", "comment-meta-refresh", "paragraph-closed-meta", "svg-style",
                                  "math-style", "href-entity-javascript", "event-on-allowed-tag"])
def test_markup_a_browser_would_build_is_refused_with_a_reason(guide, translator, name):
    response = translate(translator, guide, {body_key(guide): typed(name)}, action="submit")
    assert response.status_code == 400
    assert not DraftSegment.objects.exists()


def test_the_reported_comment_trick_is_refused_naming_the_image(guide, translator):
    """`html.parser` read `<!-->…-->` as one comment and let the <img onerror> through."""
    response = translate(translator, guide, {body_key(guide): typed("comment-dash-gt")}, action="submit")
    assert response.status_code == 400
    assert "the tag &lt;img&gt; is not allowed" in response.text


def test_a_comment_is_dropped_not_stored(guide, translator):
    text = "<p>Cada cifra <!-- nota interna --> tiene su fuente.</p>"
    assert translate(translator, guide, {body_key(guide): text}, action="submit").status_code == 302
    stored = DraftSegment.objects.get(key=body_key(guide)).text
    assert stored == "<p>Cada cifra  tiene su fuente.</p>"


def test_a_token_hidden_in_a_comment_counts_as_dropped():
    problems = richtext_tokens.check("<p>Lidera con <!-- {1} --> tokens/s.</p>", {"{1}": "<embed/>"})
    assert "keep {1} exactly once" in problems


@pytest.mark.parametrize("name", sorted(VECTORS))
def test_a_draft_stored_by_other_means_is_cleaned_when_approved(client, guide, editor, name):
    """A draft written before this check, or by any path but the workspace, is not trusted."""
    baseline = client.get(SPANISH_URL).text
    memory = memory_for(guide)
    draft = TranslationDraft.objects.create(memory=memory, status=TranslationDraft.Status.SUBMITTED, version=1)
    DraftSegment.objects.create(draft=draft, key=body_key(guide), text=typed(name), source_text="x")
    assert review(editor, guide).status_code == 302
    approved = ApprovedSegment.objects.get(memory=memory, key=body_key(guide)).text
    assert "MARK-" + name in approved and not dangers(approved)
    page = client.get(SPANISH_URL).text
    assert "MARK-" + name in page
    assert injected(page, baseline) == []


@pytest.mark.parametrize("name", ["comment-meta-refresh", "paragraph-closed-meta", "svg-style", "href-entity-javascript"])
def test_approved_spanish_stored_before_the_check_is_cleaned_on_the_next_publish(client, guide, name):
    baseline = client.get(SPANISH_URL).text
    memory = memory_for(guide)
    ApprovedSegment.objects.filter(memory=memory, key=body_key(guide)).update(text=typed(name))
    page = ArticlePage.objects.get(pk=guide.pk)
    page.save_revision().publish()
    html = client.get(SPANISH_URL).text
    assert "MARK-" + name in html
    assert injected(html, baseline) == []


def test_build_translation_memories_cleans_live_spanish_written_before_the_check(client, guide):
    """The upgrade command rewrites live Spanish columns from the memories, through the cleaner."""
    baseline = client.get(SPANISH_URL).text
    memory = memory_for(guide)
    ApprovedSegment.objects.filter(memory=memory, key=body_key(guide)).update(text=typed("comment-meta-refresh"))
    page = ArticlePage.objects.get(pk=guide.pk)
    raw = page.body_en.get_prep_value()
    raw[0]["value"] = typed("comment-meta-refresh")  # the live row as an approval before the fix left it
    ArticlePage.objects.filter(pk=guide.pk).update(body_es=raw)
    call_command("build_translation_memories", verbosity=0)
    body_es = ArticlePage.objects.get(pk=guide.pk).body_es.raw_data[0]["value"]
    assert "MARK-comment-meta-refresh" in body_es and "<meta" not in body_es
    assert injected(client.get(SPANISH_URL).text, baseline) == []


def test_a_translation_keeps_the_english_figure_and_link_but_no_forged_one():
    glm = glm_data()
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"])
    english = f'<p>Leads at {speed}; see <a linktype="page" id="3">home</a>.</p>'
    forged = '<a href="https://evil.example/">x</a><embed embedtype="dataref" model="999" metric="price"/>'
    spanish = f'<p>Lidera con {speed}; véase <a linktype="page" id="3">portada</a>.</p>{forged}'
    stored = richtext_tokens.stored_translation(spanish, english)
    assert speed in stored and '<a linktype="page" id="3">portada</a>' in stored
    assert "evil.example" not in stored and 'model="999"' not in stored
    assert richtext_tokens.stored_translation(stored, english) == stored

