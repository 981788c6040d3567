"""Captions and notes of data blocks hold checked statements like any other text (issue 24): a claim
typed there is marked in both languages when the data stops bearing it out, listed by the review of
changed figures, and left out where a mark cannot be shown (a table's accessible name, the CSV name).
Words stored while these fields were plain text stay plain words, never markup."""

import importlib

import pytest
from bs4 import BeautifulSoup

from articles.blocks import LeaderboardBlock
from articles.blocks.inline_text import plain_to_rich
from articles.models import ArticlePage
from reviews.models import FigureChange
from tests.figures_support import glm_data, make_article
from tests.test_statements import correct_fast, fetch, leads, statement

pytestmark = pytest.mark.django_db

CAPTION_EN = "Baseten’s premium tier leads GLM-5.3"
CAPTION_ES = "El nivel premium de Baseten lidera GLM-5.3"
NOTE_EN = "Fast is the quickest tier"
NOTE_ES = "Fast es el nivel más rápido"


@pytest.fixture
def glm():
    return glm_data()


def bar_chart(glm, caption="", note=""):
    return {"type": "bar_chart", "value": {
        "model": glm["model"].pk, "source": glm["source"].pk, "metric": "output_speed_median",
        "name_style": "short", "note": note, "caption_en": caption}}


def leaderboard(glm, caption=""):
    return {"type": "leaderboard", "value": {
        "metric": "output_speed_median", "source": glm["source"].pk,
        "models": [{"model": glm["model"].pk, "source": None}], "window_hours": None, "limit": None,
        "name_style": "short", "value_heading_en": "", "caption_en": caption}}


def charted_article(glm, policy="mark"):
    claim = leads(glm)
    en = [bar_chart(glm, f"<p>{statement(claim, CAPTION_EN)} on output speed</p>", f"<p>{statement(claim, NOTE_EN)}.</p>"),
          leaderboard(glm, f"<p>{statement(claim, CAPTION_EN)}</p>")]
    es = [bar_chart(glm, f"<p>{statement(claim, CAPTION_ES)} en velocidad</p>", f"<p>{statement(claim, NOTE_ES)}.</p>"),
          leaderboard(glm, f"<p>{statement(claim, CAPTION_ES)}</p>")]
    page = make_article(en, body_es=es, sources=[glm["source"], glm["pricing"]])
    if policy != "mark":
        ArticlePage.objects.filter(pk=page.pk).update(statement_policy=policy)
    return ArticlePage.objects.get(pk=page.pk)


def false_marks(html):
    soup = BeautifulSoup(html, "html.parser")
    return [(mark.find_parent(["caption", "figcaption"]).name, mark.get_text())
            for mark in soup.select(".statement--false")]


def test_a_true_caption_statement_prints_as_words_and_names_the_table(client, glm):
    page = charted_article(glm)
    soup = BeautifulSoup(fetch(client, page, "en"), "html.parser")
    caption = soup.select_one(".bar-chart-table caption")
    assert caption.get_text() == f"{CAPTION_EN} on output speed"
    assert caption.select_one(".statement[data-statement]") is not None
    assert soup.select_one(".chart-note").get_text() == f"{NOTE_EN}."
    assert 'linktype="statement"' not in str(soup)
    region = soup.select_one(".leaderboard .table-scroll, .table-scroll[aria-label]")
    assert region["aria-label"] == CAPTION_EN


def test_a_correction_marks_false_captions_and_notes_in_both_languages_and_the_review_lists_them(client, glm):
    page = charted_article(glm)
    correct_fast(glm)

    en, es = fetch(client, page, "en"), fetch(client, page, "es")
    assert false_marks(en) == [("caption", CAPTION_EN), ("figcaption", NOTE_EN), ("caption", CAPTION_EN)]
    assert false_marks(es) == [("caption", CAPTION_ES), ("figcaption", NOTE_ES), ("caption", CAPTION_ES)]
    assert "no longer matches the data since" in en and "ya no coincide con los datos desde" in es

    listed = FigureChange.objects.filter(page_id=page.pk, kind=FigureChange.Kind.STATEMENT)
    assert sorted(listed.filter(language="en").values_list("figure", flat=True)) == sorted(
        [CAPTION_EN, NOTE_EN, CAPTION_EN])
    assert sorted(listed.filter(language="es").values_list("figure", flat=True)) == sorted(
        [CAPTION_ES, NOTE_ES, CAPTION_ES])


def test_hide_policy_drops_a_false_caption_claim_from_the_caption_and_the_accessible_name(client, glm):
    page = charted_article(glm, policy="hide")
    correct_fast(glm)
    soup = BeautifulSoup(fetch(client, page, "en"), "html.parser")
    # The statement takes its whole sentence with it: no "on output speed" left dangling; the table
    # keeps a name, the block's own caption, which states no claim.
    assert soup.select_one(".bar-chart-table caption").get_text().strip() == "Output speed by provider · GLM-5.3 (tokens/s)"
    assert "on output speed" not in str(soup)
    assert CAPTION_EN not in str(soup) and NOTE_EN not in str(soup)


def test_words_stored_as_plain_text_stay_words(client, glm):
    typed = 'Speed <b onmouseover="alert(1)">&</b> price'
    # Migration 0019 turns what the CharBlocks stored into the rich text that prints the same words.
    migration = importlib.import_module("articles.migrations.0019_captions_and_notes_hold_statements")
    converted = migration.PlainWordsToRichText().apply(typed)
    assert converted == '<p>Speed &lt;b onmouseover="alert(1)"&gt;&amp;&lt;/b&gt; price</p>'
    # A plain value written since (demo content, an import) is read as words as well.
    assert LeaderboardBlock().child_blocks["caption_en"].to_python("A & B").source == "<p>A &amp; B</p>"
    assert plain_to_rich("Fastest &amp; cheapest") == plain_to_rich("Fastest & cheapest")

    page = make_article([bar_chart(glm, caption=converted, note=typed), leaderboard(glm, caption="Fastest & cheapest")],
                        sources=[glm["source"], glm["pricing"]])
    soup = BeautifulSoup(fetch(client, page, "en"), "html.parser")
    assert soup.select_one(".bar-chart-table caption").get_text() == typed
    assert soup.select_one(".chart-note").get_text() == typed
    assert not soup.select("b[onmouseover]")
    assert soup.select("caption")[-1].get_text() == "Fastest & cheapest"


def test_the_migration_converts_live_bodies_and_revisions_once(glm):
    import json

    from django.apps import apps

    typed = "Speed & <b>price</b>"
    page = make_article([bar_chart(glm, caption="Plain words", note=typed)], sources=[glm["source"]])
    migration = importlib.import_module("articles.migrations.0019_captions_and_notes_hold_statements")
    for operation in migration.Migration.operations:
        if hasattr(operation, "operations_and_block_paths"):
            operation.code(apps, None)
    page = ArticlePage.objects.get(pk=page.pk)
    expected = "<p>Speed &amp; &lt;b&gt;price&lt;/b&gt;</p>"
    for body in (page.body_en, page.body_es):
        assert body.raw_data[0]["value"]["note"] == expected  # once, though `body` is one of the languages
        assert body.raw_data[0]["value"]["caption_en"] == "<p>Plain words</p>"
    revision = json.loads(page.revisions.order_by("-id").first().content["body_en"])
    assert revision[0]["value"]["note"] == expected


def test_an_emptied_caption_gives_way_to_the_blocks_own(client, glm):
    page = make_article([bar_chart(glm, caption='<p data-block-key="a1"></p>', note="<p></p>")],
                        sources=[glm["source"], glm["pricing"]])
    soup = BeautifulSoup(fetch(client, page, "en"), "html.parser")
    assert soup.select_one(".bar-chart-table caption").get_text() == "Output speed by provider · GLM-5.3 (tokens/s)"
    assert soup.select_one(".chart-note") is None
