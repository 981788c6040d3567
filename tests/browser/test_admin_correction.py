"""The correction the issue reports, made in the admin as editors make it: Baseten (Fast)'s GLM-5.3 output
speed corrected from 283.4 to 140 (open the published snapshot, create a correction, change the row, say
why, a second editor publishes it under four eyes). Then, in Chromium: every statement the data no longer
bears out is marked on the article in English and in Spanish, and the review of changed figures lists
each of them first, with the figures that broke it and a link to where its words are edited."""

import re

import pytest
from playwright.sync_api import expect

from .admin_steps import log_in, member, visit

pytestmark = pytest.mark.browser

PAGES = {"en": "/en/fastest-llm-api/", "es": "/es/api-llm-mas-rapida/"}
EVIDENCE = {"en": "no longer matches the data:", "es": "ya no coincide con los datos:"}
NOTE = "Baseten (Fast)'s GLM-5.3 output speed was 140 tokens/s: the 283.4 came from a cached run."


def glm_snapshot():
    from benchmarks.models import Snapshot

    return Snapshot.objects.published().get(source__title_en="GLM-5.3 providers")


def false_per_evaluation(lang):
    """The words of every statement whose conditions the published data no longer meets, per
    articles.statements evaluation (summary and body), in page order."""
    from articles.models import ArticlePage
    from articles.statements.evaluate import evaluate
    from articles.statements.markup import statements_in_html
    from articles.statements.page import statements_in_blocks

    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    found = statements_in_html(getattr(page, f"summary_{lang}"))
    found += [(s.claim, s.words) for s in statements_in_blocks(list(getattr(page, f"body_{lang}")))]
    return sorted(words for claim, words in found if claim is None or not evaluate(claim, page.page_data).holds)


def correct_in_the_admin(page, snapshot):
    """As an editor: the published snapshot → Create correction → the draft's Baseten (Fast) output speed
    row to 140 and a correction note → Save."""
    visit(page, "/admin/snippets/benchmarks/snapshot/?status=published")
    page.get_by_role("link", name=str(snapshot)).click()
    page.get_by_role("link", name="Create correction").first.click()
    page.get_by_role("button", name="Create correction").click()
    expect(page.locator(".messages")).to_contain_text("Draft correction")
    # The draft's rows a page at a time: narrow them to Baseten's output speed, as an editor would.
    narrow = page.locator("form.snapshot-measurement-filter")
    narrow.get_by_label("Provider").select_option(label="Baseten")
    narrow.get_by_label("Metric").select_option(label="Output speed")
    narrow.get_by_role("button", name="Filter").click()
    expect(page.locator(".snapshot-measurement-count")).to_contain_text("Measurements 1–2 of 2")
    row = page.locator("[data-inline-panel-child]", has_text="Baseten (Fast) · GLM-5.3")
    expect(row).to_have_count(1)
    value = row.locator("input[name$='-value']")
    expect(value).to_have_value(re.compile(r"^283\.40*$"))
    value.fill("140")
    page.locator("textarea[name='correction_note']").fill(NOTE)
    page.get_by_role("button", name="Save").first.click()
    expect(page.locator(".messages")).to_contain_text("updated", timeout=30_000)


def publish_draft(page, draft):
    """Publish the draft correction from its editor's header, its note as the editor wrote it."""
    visit(page, f"/admin/snippets/benchmarks/snapshot/edit/{draft.pk}/")
    page.locator("header").get_by_role("link", name="Publish").click()
    expect(page.locator("#id_correction_note")).to_have_value(NOTE)
    page.get_by_role("button", name="Yes, publish").click()
    expect(page.locator(".messages")).to_contain_text("which is kept as history", timeout=30_000)


def test_the_issue_correction_through_the_admin_marks_and_lists_every_false_statement(
    open_page, django_user_model, settings
):
    from benchmarks.models import Measurement, Snapshot
    from config import four_eyes

    settings.FOUR_EYES_APPROVAL = True  # as in production: whoever prepared the draft may not publish it
    member(django_user_model, "ana", "Editors")
    member(django_user_model, "luis", "Editors")
    snapshot = glm_snapshot()
    for url in PAGES.values():
        reader = open_page()
        assert reader.goto(url).ok
        expect(reader.locator(".statement--false")).to_have_count(0)

    ana = open_page()
    log_in(ana, "ana")
    correct_in_the_admin(ana, snapshot)
    draft = Snapshot.objects.get(supersedes=snapshot)
    changed = Measurement.objects.get(snapshot=draft, metric="output_speed_median",
                                      endpoint__provider__slug="baseten", endpoint__tier="Fast")
    assert changed.value == 140
    assert draft.measured_at == snapshot.measured_at, "the correction keeps its snapshot's time exactly"
    if four_eyes.required():
        visit(ana, f"/admin/snippets/benchmarks/snapshot/publish/{draft.pk}/")
        expect(ana.locator(".four-eyes")).to_be_visible()
        publisher = open_page()
        log_in(publisher, "luis")
    else:
        publisher = ana
    publish_draft(publisher, draft)
    draft.refresh_from_db()
    assert draft.status == Snapshot.Status.PUBLISHED and draft.correction_note == NOTE

    # The article, as a reader sees it in each language: nothing false left unmarked.
    for lang, url in PAGES.items():
        really_false = false_per_evaluation(lang)
        assert len(really_false) >= 6, lang
        reader = open_page()
        assert reader.goto(url).ok
        marked = sorted(reader.locator(".statement--false").all_text_contents())
        unmarked = [words for words in really_false if words not in marked]
        assert unmarked == [], f"{lang}: false statements left unmarked: {unmarked}"
        assert marked == really_false, lang

    # The review of changed figures: all of them, first, with their evidence and where to edit them.
    visit(publisher, "/admin/reviews/changes/")
    change_set = publisher.locator(f"[data-change-set='{draft.review_change_set.pk}']")
    for lang in PAGES:
        really_false = false_per_evaluation(lang)
        rows = change_set.locator(f"tr[data-item][data-language='{lang}']")
        kinds = [row.get_attribute("data-kind") for row in rows.all()]
        listed = sorted(change_set.locator(
            f"tr.figure-change--statement[data-language='{lang}'] td.figure").all_text_contents())
        assert listed == really_false, lang
        assert kinds[:len(listed)] == ["statement"] * len(listed), f"{lang}: statements are not listed first"
        for row in change_set.locator(f"tr.figure-change--statement[data-language='{lang}']").all():
            expect(row.locator("td.now")).to_contain_text(EVIDENCE[lang])
            expect(row.locator("td.now")).to_contain_text(re.compile(r"GLM-5\.3 · [^:]+: \d+\.\d"))
            link = row.locator("a.edit-sentence").get_attribute("href")
            if lang == "en":
                assert re.fullmatch(r"/admin/pages/\d+/edit/#(block-[\w-]+|panel-child-content-summary_en)-section",
                                    link), link
            else:
                assert re.fullmatch(r"/admin/translate/articles/articlepage/\d+/#text-\d+", link), link

    # Following a link lands where the words are: the block in the page editor, the segment in the
    # translation workspace.
    english = change_set.locator("tr.figure-change--statement[data-language='en']",
                                 has_text="tops the speed ranking on GLM-5.3")
    english.locator("a.edit-sentence").click()
    anchor = publisher.url.split("#")[1]
    block = publisher.locator(f"#{anchor}")
    expect(block).to_be_visible(timeout=30_000)
    expect(block).to_contain_text("Provider cards")
    expect(block).to_be_in_viewport(timeout=10_000)

    visit(publisher, "/admin/reviews/changes/")
    spanish = publisher.locator("tr.figure-change--statement[data-language='es']",
                                has_text="encabeza la velocidad en GLM-5.3")
    spanish.locator("a.edit-sentence").click()
    segment = publisher.locator(f"textarea#{publisher.url.split('#')[1]}")
    assert "encabeza la velocidad en GLM-5.3" in segment.input_value()
    # A rich segment is edited in the editor shown in place of its textarea: that is what is in view.
    editor = publisher.locator("tr.workspace-segment", has=segment).locator("[contenteditable='true']")
    expect(editor).to_contain_text("encabeza la velocidad en GLM-5.3")
    expect(editor).to_be_in_viewport()
    expect(editor).to_be_focused()
