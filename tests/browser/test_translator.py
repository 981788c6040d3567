"""Translators work in the translation workspace: their Spanish waits there, apart from the page's
revisions, until an editor approves it; they can change text and nothing else."""

import re

import pytest
from django.utils.html import strip_tags
from playwright.sync_api import FormData, expect

from .admin_steps import (
    SAVE_TIMEOUT_MS,
    Clicks,
    log_in,
    member,
    prepend_to_rich_text,
    publish,
    replace_in_spanish_markup,
    save_translation,
    segment,
    segment_with_english,
    spanish_markup,
    visit,
    workspace_url,
)

pytestmark = pytest.mark.browser

ARTICLE_EN = "/en/fastest-llm-api/"
ARTICLE_ES = "/es/api-llm-mas-rapida/"
TITLE_ES = "La API de LLM más rápida: velocidad de salida por modelo, no por proveedor"
NEW_TITLE_ES = "La API de LLM más veloz, modelo a modelo"
SUMMARY_EN_FIRST = "Which host is quickest depends on the model you call."
NEW_SUMMARY_EN_FIRST = "The quickest host depends on which model you call."
SUMMARY_ES = (
    "El proveedor más rápido depende del modelo que llames. El nivel prémium de Baseten lidera dos de los modelos "
    "actuales, CoreWeave lidera GLM-5.3-Flash y Cerebras sigue al frente en la referencia GPT-OSS 120B."
)
NEW_SUMMARY_ES = "El proveedor más veloz cambia con cada modelo."
SUMMARY_ES_FIRST = "El proveedor más rápido depende del modelo que llames."
CARD_EN = "Leads two of the three current models, both times through its premium Fast tier."
CARD_ES = "Lidera dos de los tres modelos actuales, en ambos casos con su nivel prémium Fast."
NEW_CARD_ES = "Primero en dos de los tres modelos actuales, siempre con su nivel Fast."
# What the workspace form may post: its token, and per segment a text, the hash of the text it was
# edited from, and the "still correct" box; the button says save or submit.
WORKSPACE_FIELDS = re.compile(r"^(csrfmiddlewaretoken|text-\d+|seen-\d+|confirm-\d+|action)$")

# Clicks the translator needed in the old flow, counted in 451f285's tests/browser/test_translator.py
# from the page editor on (it opened the editor by its address, so no navigation click is counted):
#   show_language_fields(translator, "es")                    1  EN/ES toggle to reach the _es fields
#   open_actions_menu(translator) (no Publish offered)        1
#   "Save draft"                                              1
#   open_actions_menu(translator)                             1
#   "Submit to Spanish review"                                1
# The shortest old route through those same steps, from the sidebar, was no shorter: Translation
# status, the page's Edit link, EN/ES toggle, actions menu, "Submit to Spanish review" (5 as well).
OLD_FLOW_CLICKS = 5


def demo_article():
    from articles.models import ArticlePage

    return ArticlePage.objects.get(slug_en="fastest-llm-api")


def footnote_numbers(page):
    return page.locator("sup.fn a").all_inner_texts()


def test_a_translators_saved_draft_stays_off_the_page_when_an_editor_publishes_english(
    open_page, django_user_model, screenshot
):
    from editorial.roles import EDITORS, TRANSLATORS

    article = demo_article()
    member(django_user_model, "traductora", TRANSLATORS)
    member(django_user_model, "editora", EDITORS)
    reader = open_page()
    reader.goto(ARTICLE_EN)
    footnotes = footnote_numbers(reader)
    assert footnotes, "the demo article prints footnote markers"

    # The translator saves Spanish text in the workspace without submitting it.
    translator = open_page()
    log_in(translator, "traductora")
    visit(translator, workspace_url(article))
    segment(translator, "title").locator("textarea").fill(NEW_TITLE_ES)
    replace_in_spanish_markup(segment(translator, "summary"), SUMMARY_ES_FIRST, NEW_SUMMARY_ES)
    save_translation(translator)
    expect(segment(translator, "title")).to_contain_text("changed in draft")

    # An editor changes one English sentence and publishes.
    editor = open_page()
    log_in(editor, "editora")
    visit(editor, f"/admin/pages/{article.pk}/edit/")
    prepend_to_rich_text(editor, "summary_en", NEW_SUMMARY_EN_FIRST + " ")
    publish(editor)
    article.refresh_from_db()
    assert NEW_SUMMARY_EN_FIRST in article.summary_en, article.summary_en

    # Readers get the new English and the approved Spanish, not the translator's draft.
    reader.goto(ARTICLE_ES)
    expect(reader.locator("h1")).to_have_text(TITLE_ES)
    expect(reader.locator("p.summary")).to_have_text(SUMMARY_ES)
    for draft_text in (NEW_TITLE_ES, NEW_SUMMARY_ES):
        expect(reader.locator("html")).not_to_contain_text(draft_text)
    reader.goto(ARTICLE_EN)
    expect(reader.locator("p.summary")).to_contain_text(NEW_SUMMARY_EN_FIRST)
    assert footnote_numbers(reader) == footnotes
    article.refresh_from_db()
    assert (article.title_es, strip_tags(article.summary_es)) == (TITLE_ES, SUMMARY_ES)
    assert NEW_TITLE_ES not in str(article.live_revision.content)

    # The draft is still the translator's, and the segment whose English changed says so.
    translator.reload()
    expect(segment(translator, "title").locator("textarea")).to_have_value(NEW_TITLE_ES)
    expect(segment(translator, "summary")).to_have_attribute("data-status", "outdated")
    expect(segment(translator, "summary").locator("textarea")).to_have_value(re.compile(re.escape(NEW_SUMMARY_ES)))
    screenshot(translator, "workspace-draft-after-english-publish")
    assert reader.console_errors == [] and translator.console_errors == []


def test_a_translator_can_change_text_but_not_sources_or_data_settings(open_page, django_user_model):
    from editorial.roles import EDITORS, TRANSLATORS

    article = demo_article()
    edit_url = f"/admin/pages/{article.pk}/edit/"
    member(django_user_model, "traductora", TRANSLATORS)
    member(django_user_model, "editora", EDITORS)

    def stored():
        article.refresh_from_db()
        return (
            article.latest_revision_id,
            article.live_revision_id,
            list(article.page_sources.values_list("source_id", flat=True)),
            article.body_en.get_prep_value(),
        )

    before = stored()
    translator = open_page()
    log_in(translator, "traductora")

    # The page editor is not offered.
    translator.goto(edit_url)
    expect(translator).to_have_url(re.compile(r"/admin/$"))
    expect(translator.locator(".messages")).to_contain_text("do not have permission")
    expect(translator.locator("#page-edit-form")).to_have_count(0)

    # The workspace offers text boxes only: no chooser, no select, no field of the page.
    visit(translator, workspace_url(article))
    form = translator.locator("form.workspace-form")
    expect(form.locator("select, [data-chooser], .chooser, input[type=text], input[type=file]")).to_have_count(0)
    names = form.evaluate("form => [...new FormData(form).keys()]")
    assert names and all(WORKSPACE_FIELDS.match(name) for name in names), sorted(set(names))
    # A figure token cannot be dropped from a paragraph: nothing is saved, the segment says why.
    from editorial.models import TranslationDraft

    # (The GLM-5.3 paragraph: live figures, and checked statements, whose tokens are kept the same way.)
    paragraph = segment_with_english(translator, "hosts measured,")
    spanish_markup(paragraph).fill("<p>Sin cifras.</p>")
    save_translation(translator, message="Nothing was saved")
    expect(paragraph.locator(".error-message").filter(has_text="{1}").first).to_be_visible()
    expect(paragraph.locator(".error-message").filter(has_text='<a id="a1">').first).to_be_visible()
    assert not TranslationDraft.objects.exists()

    # The editor's own edit form, with a source removed and a table's sort changed, posted from the
    # translator's session, is refused and changes nothing.
    editor = open_page()
    log_in(editor, "editora")
    visit(editor, edit_url)
    fields = editor.evaluate(
        "() => [...new FormData(document.getElementById('page-edit-form'))].filter(([, v]) => typeof v === 'string')"
    )
    forged = dict(fields)
    assert forged["page_sources-0-DELETE"] == "" and "output_speed_median" in forged.values()
    sort = next(name for name, value in fields if name.endswith("-value-sort_metric"))
    token = translator.locator("form.workspace-form input[name=csrfmiddlewaretoken]").input_value()

    def post_as(page, token):
        data = FormData()
        for name, value in fields:
            changes = {"csrfmiddlewaretoken": token, "page_sources-0-DELETE": "1", sort: "ttfc_median"}
            data.append(name, changes.get(name, value))
        return page.request.post(edit_url, multipart=data, max_redirects=0)

    response = post_as(translator, token)
    assert response.status == 302 and response.headers["location"] == "/admin/", response.status
    assert stored() == before

    # The same request from the editor's session does save those changes (so the request was valid).
    editor_token = editor.locator("#page-edit-form input[name=csrfmiddlewaretoken]").input_value()
    response = post_as(editor, editor_token)
    assert response.status == 302 and response.headers["location"].endswith(edit_url), response.status
    article.refresh_from_db()
    assert article.latest_revision_id != before[0]
    draft = article.get_latest_revision_as_object()
    assert len(draft.page_sources.all()) == len(before[2]) - 1
    assert [block.value["sort_metric"] for block in draft.body_en if block.block_type == "provider_table"][0] == (
        "ttfc_median"
    )
    # The refused translation's 400 is the only error the translator's browser saw.
    assert [error for error in translator.console_errors if "400 (Bad Request)" not in error] == []


def test_a_translator_submits_the_demo_article_in_fewer_clicks_than_before(open_page, django_user_model, screenshot):
    from editorial.models import TranslationDraft
    from editorial.roles import TRANSLATORS

    article = demo_article()
    # An English change puts the article on the translator's list (Translation status lists what
    # needs work), as it would after an editor's update.
    revision = article.get_latest_revision_as_object()
    revision.summary_en = revision.summary_en + " Figures are refreshed daily."
    revision.save_revision().publish()
    member(django_user_model, "traductora", TRANSLATORS)
    translator = open_page()
    log_in(translator, "traductora")
    clicks = Clicks()

    clicks.click(translator.locator("#wagtail-sidebar").get_by_role("link", name="Translation status"))
    expect(translator.locator("h1")).to_contain_text("Translation status")
    row = translator.locator(f'tr[data-object="articlepage:{article.pk}"]')
    clicks.click(row.locator("a.translate"))
    expect(translator).to_have_url(re.compile(re.escape(workspace_url(article)) + "$"))
    segment(translator, "title").locator("textarea").fill(NEW_TITLE_ES)
    replace_in_spanish_markup(segment_with_english(translator, CARD_EN), CARD_ES, NEW_CARD_ES)
    clicks.click(translator.get_by_role("button", name="Save and submit for review"), no_wait_after=True)
    expect(translator.locator(".messages")).to_contain_text("submitted for review", timeout=SAVE_TIMEOUT_MS)
    expect(translator.locator("[data-draft-status='submitted']")).to_be_visible()
    screenshot(translator, "workspace-submitted")

    draft = TranslationDraft.objects.get()
    assert draft.status == TranslationDraft.Status.SUBMITTED
    texts = sorted(strip_tags(segment.text) for segment in draft.segments.all())
    assert texts == sorted([NEW_TITLE_ES, NEW_CARD_ES])
    article.refresh_from_db()
    assert article.title_es == TITLE_ES, "submitting publishes nothing"
    assert clicks.count == 3
    assert clicks.count < OLD_FLOW_CLICKS
