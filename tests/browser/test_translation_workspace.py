"""The translation workspace follows the English page: segment statuses and filters, outdated segments
after an English edit, a Spanish body that always binds the English body's data, and an approval
that changes only Spanish text on the live page."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from .admin_steps import (
    BODY_PANEL,
    block_action,
    input_with_value,
    log_in,
    member,
    prepend_to_rich_text,
    publish,
    replace_in_spanish_markup,
    save_translation,
    segment,
    segment_with_english,
    submit,
    visit,
    workspace_url,
)

pytestmark = pytest.mark.browser

ARTICLE_EN = "/en/fastest-llm-api/"
ARTICLE_ES = "/es/api-llm-mas-rapida/"
TITLE_EN = "Fastest LLM API: output speed per model, not per vendor"
TITLE_ES = "La API de LLM más rápida: velocidad de salida por modelo, no por proveedor"
NEW_TITLE_ES = "La API de LLM más veloz, modelo a modelo"
HEADING_EN = "GLM-5.3 output speed"
HEADING_ES = "Velocidad de salida de GLM-5.3"
CARD_EN = "Leads two of the three current models, both times through its premium Fast tier."
CARD_ES = "Lidera dos de los tres modelos actuales, en ambos casos con su nivel prémium Fast."
NEW_CARD_ES = "Primero en dos de los tres modelos actuales, siempre con su nivel Fast."
SUMMARY_EN_FIRST = "Which host is quickest depends on the model you call."
# A page's blocks as a reader sees them, language aside: block type, table columns and rows, and the
# raw values of its figures (<data value>), which name the same measurements in both languages
# (the Spanish page writes some of them with a decimal comma).
PAGE_BLOCKS_JS = """() => [...document.querySelectorAll("[class*='w-block-']")].map(block => [
    [...block.classList].find(name => name.startsWith('block-')),
    block.querySelectorAll('thead th').length,
    block.querySelectorAll('tbody tr, li.provider-card').length,
    [...block.querySelectorAll('data[value]')].map(data => data.getAttribute('value').replace(',', '.')).join(' '),
])"""


def demo_article():
    from articles.models import ArticlePage

    return ArticlePage.objects.get(slug_en="fastest-llm-api")


def block_ids(article, block_type=None, text=None):
    """Ids of the article's top-level English blocks (of one type, whose text value is `text`)."""
    return [
        child.id
        for child in article.body_en
        if block_type in (None, child.block_type) and (text is None or child.value.get("text") == text)
    ]


def without_text(block, value):
    """A body's stored JSON with each text leaf blanked out: what is left is its data bindings and
    settings. Children a block marks `untranslated` (heading anchors) are addresses and kept."""
    from wagtail import blocks

    if isinstance(block, (blocks.CharBlock, blocks.TextBlock, blocks.RichTextBlock)):
        return "<text>"
    if isinstance(block, blocks.StreamBlock):
        return [{**child, "value": without_text(block.child_blocks[child["type"]], child["value"])} for child in value]
    if isinstance(block, blocks.ListBlock):
        return [
            {**item, "value": without_text(block.child_block, item["value"])}
            if isinstance(item, dict) and item.get("type") == "item"
            else without_text(block.child_block, item)
            for item in value
        ]
    if isinstance(block, blocks.StructBlock):
        kept = set(getattr(block.meta, "untranslated", ()) or ())
        return {
            name: child if name in kept or name not in block.child_blocks else without_text(block.child_blocks[name], child)
            for name, child in value.items()
        }
    return value


def publish_english(article, change):
    """An editor's English edit, published: `change(body)` edits the English body's stored JSON.
    The page is read afresh: one whose body was iterated would store new ids for id-less list items."""
    page = type(article).objects.get(pk=article.pk).get_latest_revision_as_object()
    body = page.body_en.get_prep_value()
    change(body)
    page.body_en = body
    page.save_revision().publish()


def filter_counts(page):
    """{filter: count} read from the workspace's filter links ("Missing (3)")."""
    counts = {}
    for link in page.locator("a[data-filter]").all():
        counts[link.get_attribute("data-filter")] = int(re.search(r"\((\d+)\)", link.inner_text()).group(1))
    return counts


def test_the_workspace_shows_english_beside_spanish_with_status_filters(open_page, django_user_model, screenshot):
    from editorial.roles import TRANSLATORS

    article = demo_article()
    changed = block_ids(article, "heading", HEADING_EN)[0]
    added = str(uuid.uuid4())

    def change(body):
        next(child for child in body if child["id"] == changed)["value"]["text"] = "GLM-5.3 output speeds"
        body.insert(1, {"type": "heading", "id": added, "value": {"text": "At a glance", "level": "h2", "anchor": ""}})

    publish_english(article, change)
    member(django_user_model, "traductora", TRANSLATORS)
    translator = open_page()
    log_in(translator, "traductora")
    visit(translator, workspace_url(article))

    # English on the left, the Spanish to edit on the right, on one row per segment.
    title = segment(translator, "title")
    expect(title.locator("td.workspace-english")).to_have_text(TITLE_EN)
    expect(title.locator("td.workspace-spanish textarea")).to_have_value(TITLE_ES)
    english = title.locator("td.workspace-english").bounding_box()
    spanish = title.locator("td.workspace-spanish textarea").bounding_box()
    assert english["x"] + english["width"] <= spanish["x"] and abs(english["y"] - spanish["y"]) < english["height"]
    screenshot(translator, "workspace-all-segments")

    counts = filter_counts(translator)
    assert (counts["missing"], counts["outdated"]) == (1, 1)
    assert counts["up_to_date"] == counts["all"] - 2 > 40
    expect(translator.locator("tr.workspace-segment")).to_have_count(counts["all"])
    for status in ("missing", "outdated", "up_to_date"):
        translator.locator(f"a[data-filter='{status}']").click()
        expect(translator).to_have_url(re.compile(rf"\?status={status}$"))
        rows = translator.locator("tr.workspace-segment")
        expect(rows).to_have_count(counts[status])
        assert set(rows.evaluate_all("rows => rows.map(row => row.dataset.status)")) == {status}
    translator.locator("a[data-filter='missing']").click()
    expect(translator.locator("tr.workspace-segment")).to_have_attribute("data-key", f"body/{added}/text")
    translator.locator("a[data-filter='outdated']").click()
    expect(translator.locator("tr.workspace-segment")).to_have_attribute("data-key", f"body/{changed}/text")

    # Translating the missing segment moves it to "up to date"; the filter stays.
    translator.locator("a[data-filter='missing']").click()
    segment(translator, f"body/{added}/text").locator("textarea").fill("De un vistazo")
    save_translation(translator)
    expect(translator).to_have_url(re.compile(r"\?status=missing$"))
    expect(translator.locator("tr.workspace-segment")).to_have_count(0)
    expect(translator.locator(".workspace-empty")).to_be_visible()
    assert filter_counts(translator) == {**counts, "missing": 0, "up_to_date": counts["up_to_date"] + 1}
    assert translator.console_errors == []


def test_a_segment_whose_english_changed_is_flagged_outdated_with_the_english_diff(
    open_page, django_user_model, screenshot
):
    from editorial.roles import EDITORS, TRANSLATORS

    article = demo_article()
    heading = block_ids(article, "heading", HEADING_EN)[0]
    member(django_user_model, "editora", EDITORS)
    member(django_user_model, "traductora", TRANSLATORS)
    editor = open_page()
    log_in(editor, "editora")
    visit(editor, f"/admin/pages/{article.pk}/edit/")
    input_with_value(editor, BODY_PANEL, HEADING_EN).fill("GLM-5.3 output speeds")
    publish(editor)

    translator = open_page()
    log_in(translator, "traductora")
    visit(translator, workspace_url(article))
    translator.locator("a[data-filter='outdated']").click()
    row = segment(translator, f"body/{heading}/text")
    expect(row).to_have_attribute("data-status", "outdated")
    expect(row.locator(".workspace-status")).to_have_text(re.compile("outdated", re.IGNORECASE))
    expect(row.locator(".workspace-source")).to_have_text("GLM-5.3 output speeds")
    expect(row.locator(".workspace-diff del")).to_have_text("speed")
    expect(row.locator(".workspace-diff ins")).to_have_text("speeds")
    expect(row.locator("textarea")).to_have_value(HEADING_ES)
    row.scroll_into_view_if_needed()
    screenshot(translator, "workspace-outdated-segment")

    # The translator confirms the Spanish still fits: the segment is up to date again.
    row.get_by_label("The Spanish is still correct").check()
    save_translation(translator)
    translator.locator("a[data-filter='all']").click()
    expect(segment(translator, f"body/{heading}/text")).to_have_attribute("data-status", "up_to_date")
    assert translator.console_errors == []


def test_the_spanish_body_binds_the_same_data_as_the_english_after_a_structural_change(
    open_page, django_user_model, screenshot
):
    from articles.models import ArticlePage
    from editorial.roles import EDITORS, TRANSLATORS

    article = demo_article()
    first_chart, *_middle, last_chart = block_ids(article, "bar_chart")
    before = set(block_ids(article))
    member(django_user_model, "editora", EDITORS)
    member(django_user_model, "traductora", TRANSLATORS)
    editor = open_page()
    log_in(editor, "editora")
    visit(editor, f"/admin/pages/{article.pk}/edit/")

    # Add a chart (a copy of the first, set to another metric), move it above the table before it,
    # and delete the last chart.
    top_level_ids = "() => [...document.querySelectorAll('input[name^=body_en-][name$=-id]')].filter(i => /^body_en-\\d+-id$/.test(i.name)).map(i => i.value)"
    ids_before = editor.evaluate(top_level_ids)
    block_action(editor, first_chart, "DUPLICATE").click()
    (added,) = set(editor.evaluate(top_level_ids)) - set(ids_before)
    editor.locator(f"{BODY_PANEL} [data-contentpath='{added}'] select[name$='-value-metric']").select_option(
        "ttfc_median"
    )
    block_action(editor, added, "MOVE_UP").click()
    block_action(editor, added, "MOVE_UP").click()
    block_action(editor, last_chart, "DELETE").click()
    publish(editor)

    article = ArticlePage.objects.get(pk=article.pk)
    types = [child.block_type for child in article.body_en]
    ids = [child.id for child in article.body_en]
    assert added in ids and last_chart not in ids and set(ids) - before == {added}
    assert types[ids.index(added) + 1] == "provider_table" and ids[ids.index(added) + 2] == first_chart
    # In the database: the Spanish body is the English one with other words.
    block = type(article)._meta.get_field("body").stream_block
    body_en, body_es = article.body_en.get_prep_value(), article.body_es.get_prep_value()
    assert without_text(block, body_es) == without_text(block, body_en)
    assert HEADING_ES in str(body_es) and HEADING_ES not in str(body_en)

    # On the pages: the same blocks in the same order, with the same figures.
    reader = open_page()
    reader.goto(ARTICLE_EN)
    english = reader.evaluate(PAGE_BLOCKS_JS)
    reader.goto(ARTICLE_ES)
    spanish = reader.evaluate(PAGE_BLOCKS_JS)
    assert [kind for kind, *_rest in english] == [f"block-{kind}" for kind in types]
    assert spanish == english
    charts = reader.locator("figure.bar-chart")
    expect(charts).to_have_count(types.count("bar_chart"))
    screenshot(reader, "spanish-body-after-structural-change")

    # The new chart's text waits for a translation; the deleted chart's is gone.
    translator = open_page()
    log_in(translator, "traductora")
    visit(translator, workspace_url(article))
    new_rows = translator.locator(f"tr.workspace-segment[data-key^='body/{added}/']")
    expect(new_rows).not_to_have_count(0)
    assert set(new_rows.evaluate_all("rows => rows.map(row => row.dataset.status)")) == {"missing"}
    expect(translator.locator(f"tr.workspace-segment[data-key^='body/{last_chart}/']")).to_have_count(0)
    expect(segment(translator, "title")).to_have_attribute("data-status", "up_to_date")
    assert reader.console_errors == []


CITE_BOX = re.compile(r'<section class="cite-box".*?</section>', re.S)
MOMENTS = re.compile(r"\d{8}T\d{6}Z|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ|\d\d:\d\d:\d\d UTC")


def without_version_moment(html):
    """The page with the moment its Cite box names (address, <time>, citations) masked."""
    return CITE_BOX.sub(lambda box: MOMENTS.sub("<moment>", box.group(0)), html)


def cited_version(html):
    return re.search(r'<time class="cite-version" datetime="([^"]+)"', html).group(1)


OG_VERSION = re.compile(r"og\.png\?v=([0-9a-f]{12})")


def og_version(html):
    return OG_VERSION.search(html).group(1)


def without_og_version(html):
    return OG_VERSION.sub("og.png", html)


def test_an_editors_approval_changes_only_the_spanish_text_of_the_live_page(open_page, django_user_model, screenshot):
    from editorial.models import TranslationDraft
    from editorial.roles import EDITORS, TRANSLATORS

    article = demo_article()
    member(django_user_model, "traductora", TRANSLATORS)
    member(django_user_model, "editora", EDITORS)
    translator = open_page()
    log_in(translator, "traductora")
    visit(translator, workspace_url(article))
    segment(translator, "title").locator("textarea").fill(NEW_TITLE_ES)
    replace_in_spanish_markup(segment_with_english(translator, CARD_EN), CARD_ES, NEW_CARD_ES)
    save_translation(translator, "Save and submit for review", "submitted for review")

    # The editor has English waiting in an unpublished draft.
    editor = open_page()
    log_in(editor, "editora")
    visit(editor, f"/admin/pages/{article.pk}/edit/")
    prepend_to_rich_text(editor, "summary_en", "Which host leads depends on the model. ")
    submit(editor, editor.get_by_role("button", name="Save draft"), "has been updated")

    reader = open_page()
    english_before = reader.goto(ARTICLE_EN).text()
    spanish_before = reader.goto(ARTICLE_ES).text()
    assert TITLE_ES in spanish_before and CARD_ES in spanish_before

    # Dashboard → the translation awaiting review → old and new Spanish side by side → Approve.
    visit(editor, "/admin/")
    editor.locator("section.translations-awaiting-review").get_by_role("link", name=TITLE_EN).click()
    expect(editor).to_have_url(re.compile(r"/review/$"))
    title_row = editor.locator("tr.review-segment[data-key='title']")
    expect(title_row.locator(".review-diff del")).to_contain_text("rápida:")
    expect(title_row.locator(".review-diff ins")).to_contain_text("veloz,")
    expect(editor.locator("tr.review-segment")).to_have_count(2)
    expect(editor.locator("input[name=mode][value=publish]")).to_be_checked()
    screenshot(editor, "translation-review")
    submit(editor, editor.get_by_role("button", name="Approve", exact=True), "approved and published")

    # The English page is byte for byte the same; the Spanish one differs by the approved text only,
    # and by the version its "Cite this page" box names (the approval made a new Spanish version).
    assert reader.goto(ARTICLE_EN).text() == english_before
    spanish_after = reader.goto(ARTICLE_ES).text()
    expected = spanish_before.replace(TITLE_ES, NEW_TITLE_ES).replace(CARD_ES, NEW_CARD_ES)
    # The Open Graph image draws the title: its address names the new image.
    assert og_version(spanish_after) != og_version(spanish_before)
    assert spanish_after != spanish_before
    assert without_og_version(without_version_moment(spanish_after)) == without_og_version(without_version_moment(expected))
    assert cited_version(spanish_after) > cited_version(spanish_before)
    expect(reader.locator("h1")).to_have_text(NEW_TITLE_ES)

    # The editor's English draft is still unpublished, and still their latest revision.
    article.refresh_from_db()
    assert article.has_unpublished_changes and SUMMARY_EN_FIRST in article.summary_en
    latest = article.get_latest_revision_as_object()
    assert "Which host leads depends on the model." in latest.summary_en and latest.title_es == NEW_TITLE_ES
    assert TranslationDraft.objects.get().status == TranslationDraft.Status.APPROVED
    assert reader.console_errors == [] and editor.console_errors == []


def test_publishing_without_changes_leaves_every_segment_up_to_date(open_page, django_user_model):
    from editorial.roles import EDITORS

    article = demo_article()
    member(django_user_model, "editora", EDITORS)
    editor = open_page()
    log_in(editor, "editora")
    reader = open_page()
    spanish_before = reader.goto(ARTICLE_ES).text()
    visit(editor, f"/admin/pages/{article.pk}/edit/")
    publish(editor)
    visit(editor, workspace_url(article))
    counts = filter_counts(editor)
    assert (counts["missing"], counts["outdated"]) == (0, 0), counts
    assert reader.goto(ARTICLE_ES).text() == spanish_before
