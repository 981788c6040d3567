"""The translation workspace as translators use it: their drafts stay out of every page revision until
approved, the page and snippet editors are closed to them, the Spanish body follows the English one's
structure and data, rich-text tokens cannot be broken, concurrent edits clash per segment, and an
English change marks its segment outdated. (Approval, snippets and the dashboard: test_translation_approval.)"""

import json

import pytest
from django.urls import reverse
from django.utils.html import escape, strip_tags

from articles.models import ArticlePage
from benchmarks.models import Provider, Source
from editorial.models import ApprovedSegment, DraftSegment, TranslationDraft
from editorial.roles import TRANSLATORS
from editorial.workspace import MISSING, OUTDATED, UP_TO_DATE

from ..bilingual_pages import build_small_site
from ..figures_support import glm_data, make_article, paragraph, ref_html, table
from ..workspace_support import (
    form_post,
    logged_in,
    member,
    open_workspace,
    post_page_editor,
    review,
    translate,
    workspace_url,
)

pytestmark = pytest.mark.django_db

CLASH = "Someone else changed this segment while you were editing it."


def body_key(page, position=0):
    return f"body/{page.body_en.raw_data[position]['id']}"


# --- a translator's draft stays out of the page --------------------------------------------------


@pytest.mark.parametrize("submit", [False, True], ids=["saved", "submitted"])
def test_a_translators_draft_never_reaches_the_page_when_an_editor_publishes(client, guide, translator, editor,
                                                                             submit):
    draft_text = {"title": "Guía en borrador", body_key(guide): "<p>Texto en borrador.</p>"}
    response = translate(translator, guide, draft_text, action="submit" if submit else "save")
    assert response.status_code == 302
    assert TranslationDraft.objects.get().status == ("submitted" if submit else "editing")

    # The editor saves an English draft, then publishes an English change.
    assert post_page_editor(editor, guide, "action-save", summary_en="Saved by the editor.").status_code == 302
    assert post_page_editor(editor, guide, summary_en="What each column means, and why.").status_code == 302

    page = ArticlePage.objects.get(pk=guide.pk)
    assert strip_tags(page.summary_en) == "What each column means, and why."
    spanish = client.get("/es/guia/").text
    assert "Cómo leer las tablas" in spanish and "Cada cifra tiene una fuente." in spanish
    assert "borrador" not in spanish
    for revision in page.revisions.all():
        content = json.dumps(revision.content, ensure_ascii=False)
        assert "borrador" not in content, revision.pk
    assert page.latest_revision.content["title_es"] == "Cómo leer las tablas"
    # The draft is still there for the translator.
    _response, rows = open_workspace(translator, page)
    assert rows["title"].text == "Guía en borrador"


# --- the editors are closed to translators ---------------------------------------------------------


def refused(response):
    # Wagtail's admin turns PermissionDenied into a redirect to the dashboard with an error message.
    return response.status_code == 403 or (response.status_code == 302 and response["Location"] == "/admin/")


def snippet_url(obj, action="edit"):
    return reverse(type(obj).snippet_viewset.get_url_name(action), args=[obj.pk])


def test_a_translator_cannot_open_or_post_the_page_and_snippet_editors(guide, translator, editor):
    from ..admin_forms import form_data

    provider = Provider.objects.create(name="Acme", slug="acme", website="https://acme.example/",
                                       description_en="Fast GPUs.", description_es="GPU rápidas.")
    source = Source.objects.create(title_en="Prices", title_es="Precios", publisher="Acme",
                                   url="https://acme.example/prices")
    home = guide.get_parent()
    pages, revisions = ArticlePage.objects.count(), guide.revisions.count()

    edit = reverse("wagtailadmin_pages:edit", args=[guide.pk])
    page_form = form_data(editor.get(edit).text, "page-edit-form")
    assert refused(translator.get(edit))
    for action in ("action-publish", "action-submit", "action-save"):
        assert refused(translator.post(edit, {**page_form, "title_en": "Hijacked", action: action}))

    add = reverse("wagtailadmin_pages:add", args=["articles", "articlepage", home.pk])
    assert refused(translator.get(add))
    assert refused(translator.post(add, {"title_en": "Planted", "slug_en": "planted", "action-publish": "1"}))
    assert refused(translator.get(reverse("wagtailadmin_pages:add_subpage", args=[home.pk])))

    for obj, changes in ((provider, {"description_en": "Changed.", "name": "Renamed"}),
                         (source, {"title_en": "Changed", "publisher": "Someone"})):
        data = {**form_data(editor.get(snippet_url(obj)).text, "w-editor-form"), **changes}
        assert refused(translator.get(snippet_url(obj)))
        for action in ("action-publish", "action-submit"):
            assert refused(translator.post(snippet_url(obj), {**data, action: action}))

    assert ArticlePage.objects.count() == pages and guide.revisions.count() == revisions
    assert ArticlePage.objects.get(pk=guide.pk).title_en == "Reading the tables"
    provider.refresh_from_db()
    source.refresh_from_db()
    assert (provider.name, provider.description_en, provider.description_es) == ("Acme", "Fast GPUs.", "GPU rápidas.")
    assert (source.title_en, source.publisher, source.title_es) == ("Prices", "Acme", "Precios")
    assert not provider.revisions.exists() and not source.revisions.exists()


# --- the Spanish body is the English one with translated words -----------------------------------

# The text children of the blocks used below: everything else is data both languages must share.
TEXT_CHILDREN = {"heading": ("text",), "leaderboard": ("value_heading_en", "caption_en"), "provider_table": ("caption",)}


def without_text(raw):
    stripped = []
    for item in raw:
        item = json.loads(json.dumps(item))
        if item["type"] == "paragraph":
            item["value"] = "…"
        for name in TEXT_CHILDREN.get(item["type"], ()):
            item["value"][name] = "…"
        stripped.append(item)
    return stripped


def heading(text, anchor=""):
    return {"type": "heading", "value": {"text": text, "level": "h2", "anchor": anchor}}


def leaderboard(data, limit=None, heading_text="", caption=""):
    return {"type": "leaderboard", "value": {
        "metric": "output_speed_median", "source": data["source"].pk,
        "models": [{"model": data["model"].pk, "source": None}], "window_hours": None, "limit": limit,
        "name_style": "short", "value_heading_en": heading_text, "caption_en": caption,
    }}


@pytest.fixture
def glm():
    return glm_data()


@pytest.fixture
def article(glm):
    english = [
        heading("Speed", anchor="speed"),
        paragraph("<p>Baseten is first.</p>"),
        leaderboard(glm, heading_text="Avg tokens/s", caption="Fastest hosts"),
        table(glm, caption="Providers of GLM-5.3"),
        paragraph("<p>Closing words.</p>"),
    ]
    spanish = [
        heading("Velocidad", anchor="velocidad"),
        paragraph("<p>Baseten es el primero.</p>"),
        leaderboard(glm, limit=2, heading_text="Media de tokens/s", caption="Proveedores más rápidos"),
        table(glm, caption="Proveedores de GLM-5.3"),
        paragraph("<p>Palabras finales.</p>"),
    ]
    return make_article(english, body_es=spanish, sources=[glm["source"]], title="Speed")


def test_the_spanish_body_follows_the_english_blocks_and_data(client, glm, article, translator, editor):
    # Legacy Spanish with settings of its own (limit 2, another anchor) is not kept: data is the English one's.
    assert without_text(article.body_es.raw_data) == without_text(article.body_en.raw_data)

    raw = [dict(item) for item in article.body_en.raw_data]
    speed, first, board, providers, closing = raw
    board = {**board, "value": {**board["value"], "limit": 3, "metric": "ttfc_median"}}
    # Add a heading and a paragraph, move the closing words up, delete the provider table.
    edited = [closing, heading("New section"), speed, first, board, paragraph("<p>A new paragraph.</p>")]
    assert post_page_editor(editor, article, body_en=edited).status_code == 302

    page = ArticlePage.objects.get(pk=article.pk)
    assert [item["type"] for item in page.body_en.raw_data] == [
        "paragraph", "heading", "heading", "paragraph", "leaderboard", "paragraph"]
    assert without_text(page.body_es.raw_data) == without_text(page.body_en.raw_data)
    stored = json.loads(page.latest_revision.content["body_es"])
    assert without_text(stored) == without_text(json.loads(page.latest_revision.content["body_en"]))
    assert page.body_es.raw_data[4]["value"]["limit"] == 3

    # Kept blocks keep their translation wherever they moved; the new ones are missing.
    _response, rows = open_workspace(translator, page)
    ids = [item["id"] for item in page.body_en.raw_data]
    status = {key: row.status for key, row in rows.items()}
    assert status[f"body/{ids[0]}"] == status[f"body/{ids[2]}/text"] == status[f"body/{ids[3]}"] == UP_TO_DATE
    assert status[f"body/{ids[1]}/text"] == status[f"body/{ids[5]}"] == MISSING
    assert not any(key.startswith(f"body/{providers['id']}") for key in rows)
    spanish = client.get(f"/es/{page.slug_es}/").text
    order = [spanish.index(text) for text in ("Palabras finales.", "Velocidad", "Baseten es el primero.")]
    assert order == sorted(order)


# --- rich-text tokens ---------------------------------------------------------------------------------


@pytest.fixture
def linked(glm):
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"])
    home = build_small_site()
    english = f'<p>Baseten leads at {speed} tokens/s; see <a linktype="page" id="{home.pk}">the home page</a>.</p>'
    spanish = f'<p>Baseten lidera con {speed} tokens/s; véase <a linktype="page" id="{home.pk}">la portada</a>.</p>'
    page = make_article([paragraph(english)], body_es=[paragraph(spanish)], sources=[glm["source"]])
    return page, speed, f'<a linktype="page" id="{home.pk}">'


SHOWN = '<p>Baseten lidera con {1} tokens/s; véase <a id="a1">la portada</a>.</p>'


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        ('<p>Baseten lidera; véase <a id="a1">la portada</a>.</p>', "keep {1} exactly once"),
        ('<p>{1} y {1} tokens/s; véase <a id="a1">la portada</a>.</p>', "keep {1} exactly once"),
        ('<p>Lidera con {1} tokens/s; véase <a id="a2">la portada</a>.</p>', '<a id="a2"> is not in the English text'),
        ('<p>Lidera con {1}; <a id="a1" href="https://evil.example/">aquí</a>.</p>', "<a> may not carry attributes here"),
        ('<p>Lidera con {1}; <a id="a1">aquí</a>.</p><script>alert(1)</script>', "the tag <script> is not allowed"),
    ],
    ids=["dropped", "duplicated", "other-link", "link-target", "script"],
)
def test_a_broken_token_refuses_the_whole_save(linked, translator, typed, problem):
    page, _speed, _link = linked
    response, rows = open_workspace(translator, page)
    key = body_key(page)
    assert rows[key].text_shown == SHOWN and rows[key].english_shown.count("{1}") == 1
    data = form_post(rows, {key: typed, "title": "Otro título"})  # a valid change rides along
    response = translator.post(workspace_url(page), data)
    assert response.status_code == 400
    [row] = [row for row in response.context["rows"] if row.key == key]
    assert problem in row.errors
    assert escape(problem) in response.text
    assert [row.key for row in response.context["rows"] if row.errors] == [key]
    # All or nothing: not even the valid title was saved.
    assert not DraftSegment.objects.exists()
    assert open_workspace(translator, page)[1]["title"].text == "Fastest GLM-5.3 API (ES)"


def test_a_valid_translation_gets_the_exact_english_figure_and_link_back(client, linked, translator, editor):
    page, speed, link = linked
    key = body_key(page)
    typed = '<p>Véase <a id="a1">la portada</a>: Baseten da <b>{1}</b> tokens/s.</p>'
    assert translate(translator, page, {key: typed}, action="submit").status_code == 302
    stored = DraftSegment.objects.get(key=key).text
    assert stored == f"<p>Véase {link}la portada</a>: Baseten da <b>{speed}</b> tokens/s.</p>"
    assert review(editor, page).status_code == 302
    live = ArticlePage.objects.get(pk=page.pk)
    assert live.body_es.raw_data[0]["value"] == stored
    assert ApprovedSegment.objects.get(key=key).text == stored
    assert '<span class="dataref' in client.get(f"/es/{live.slug_es}/").text


# --- two translators at once -------------------------------------------------------------------------


def test_two_translators_changing_the_same_segment_clash(guide, translator, django_user_model):
    other = logged_in(member(django_user_model, "traductor", TRANSLATORS))
    _response, first_rows = open_workspace(translator, guide)
    _response, second_rows = open_workspace(other, guide)
    key = body_key(guide)
    assert translator.post(workspace_url(guide), form_post(first_rows, {key: "<p>La primera versión.</p>"})).status_code == 302
    response = other.post(workspace_url(guide), form_post(second_rows, {key: "<p>La segunda versión.</p>"}))
    assert response.status_code == 400
    [row] = [row for row in response.context["rows"] if row.key == key]
    assert row.errors and row.errors[0].startswith(CLASH)
    assert CLASH in response.text
    assert DraftSegment.objects.get(key=key).text == "<p>La primera versión.</p>"
    # The form now shows the first translator's text; the second makes their change on top of it.
    assert row.posted is None and "La primera versión." in response.text
    assert "La segunda versión." not in response.text
    rows = {row.key: row for row in response.context["rows"]}
    again = form_post(rows, {key: "<p>La segunda versión.</p>"})
    assert other.post(workspace_url(guide), again).status_code == 302
    assert DraftSegment.objects.get(key=key).text == "<p>La segunda versión.</p>"


def test_two_translators_changing_different_segments_both_save(guide, translator, django_user_model):
    other = logged_in(member(django_user_model, "traductor", TRANSLATORS))
    _response, first_rows = open_workspace(translator, guide)
    _response, second_rows = open_workspace(other, guide)
    key = body_key(guide)
    # Each browser posts every segment as it loaded it, with its own change typed in.
    assert translator.post(workspace_url(guide), form_post(first_rows, {key: "<p>Texto nuevo.</p>"})).status_code == 302
    response = other.post(workspace_url(guide), form_post(second_rows, {"title": "Leer las tablas"}))
    assert response.status_code == 302, response.context and [r.errors for r in response.context["rows"]]
    texts = dict(DraftSegment.objects.values_list("key", "text"))
    assert texts == {key: "<p>Texto nuevo.</p>", "title": "Leer las tablas"}


def test_a_refused_form_sent_again_still_clashes_with_an_edit_made_meanwhile(guide, translator, django_user_model):
    other = logged_in(member(django_user_model, "traductor", TRANSLATORS))
    key = body_key(guide)
    _response, rows = open_workspace(translator, guide)
    refused_save = translator.post(workspace_url(guide), form_post(rows, {"slug": "no es un slug", key: "<p>Mío.</p>"}))
    assert refused_save.status_code == 400
    assert translate(other, guide, {key: "<p>Del otro.</p>"}).status_code == 302
    shown = {row.key: row for row in refused_save.context["rows"]}
    assert shown[key].posted == "<p>Mío.</p>"  # what was typed is kept in the form
    again = translator.post(workspace_url(guide), form_post(shown, {"slug": "guia-nueva", key: "<p>Mío.</p>"}))
    assert again.status_code == 400 and CLASH in again.text
    assert DraftSegment.objects.get(key=key).text == "<p>Del otro.</p>"


# --- an English change makes its translation outdated --------------------------------------------


def test_an_english_change_marks_the_segment_outdated_until_confirmed_and_approved(guide, translator, editor):
    key = body_key(guide)
    assert open_workspace(translator, guide)[1][key].status == UP_TO_DATE
    changed = [{**guide.body_en.raw_data[0], "value": "<p>Every figure has a cited source.</p>"}]
    assert post_page_editor(editor, guide, body_en=changed).status_code == 302

    response, rows = open_workspace(translator, guide, status=OUTDATED)
    assert list(rows) == [key]
    assert str(rows[key].english_diff) == "&lt;p&gt;Every figure has a <ins>cited</ins> source.&lt;/p&gt;"
    assert "<ins>cited</ins>" in response.text
    assert rows[key].text == "<p>Cada cifra tiene una fuente.</p>"  # the Spanish is kept meanwhile

    # "The Spanish is still correct": confirmed without a change, submitted and approved.
    data = form_post(rows, confirm=[key], action="submit")
    assert translator.post(workspace_url(guide) + "?status=outdated", data).status_code == 302
    # The draft translates the new English; the approved Spanish still translates the old one.
    assert open_workspace(translator, guide)[1][key].status == UP_TO_DATE
    assert ApprovedSegment.objects.get(key=key).source_text == "<p>Every figure has a source.</p>"
    assert review(editor, guide).status_code == 302
    rows = open_workspace(translator, guide)[1]
    assert rows[key].status == UP_TO_DATE and rows[key].text == "<p>Cada cifra tiene una fuente.</p>"
    assert ApprovedSegment.objects.get(key=key).source_text == "<p>Every figure has a cited source.</p>"


# --- cost --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("blocks", [2, 24])
def test_the_workspace_costs_the_same_queries_whatever_the_body_size(glm, translator, blocks,
                                                                      django_assert_max_num_queries):
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"])
    body = []
    for n in range(blocks // 2):
        body += [heading(f"Section {n}"), paragraph(f"<p>Paragraph {n} at {speed} tokens/s.</p>")]
    page = make_article(body, sources=[glm["source"]])
    translate(translator, page, {"title": "Un borrador"})
    with django_assert_max_num_queries(15):  # measured: 13 at either size
        response, rows = open_workspace(translator, page)
    assert len(rows) == 2 + blocks  # title, slug and every block's text

