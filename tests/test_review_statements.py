"""Statements the data no longer bears out, in the review of changed figures: what each claimed reads as
sentences in the item's language, and "Edit the sentence" leads to the place where its words are
edited (the page editor's block for English, the translation workspace's segment for Spanish)."""

import re
from decimal import Decimal

import pytest
from bs4 import BeautifulSoup
from django.utils import translation

from articles.statements.conditions import (
    ALL,
    ANY,
    COMPARE,
    COUNT,
    EXACTLY,
    LEADS,
    MEASURED,
    RANK,
    VALUE,
    Claim,
    Condition,
    Host,
)
from articles.statements.evaluate import evaluate
from articles.statements.markup import statements_in_html
from articles.statements.page import statements_in_blocks
from reviews.claim_words import claim_words
from tests.figures_support import publish_correction

pytestmark = pytest.mark.django_db


def demo_article():
    from articles.models import ArticlePage

    return ArticlePage.objects.get(slug_en="fastest-llm-api")


def correct_baseten_fast():
    """The issue's correction: Baseten (Fast)'s GLM-5.3 output speed from 283.4 to 140."""
    from benchmarks.models import Measurement

    row = Measurement.objects.get(
        snapshot__status="published", snapshot__source__title_en="GLM-5.3 providers", metric="output_speed_median",
        endpoint__provider__slug="baseten", endpoint__tier="Fast",
    )
    assert row.value == Decimal("283.4")
    publish_correction(row.snapshot, {(row.endpoint_id, row.metric): Decimal("140")})


def every_statement(page, lang):
    """(claim, words) of every statement of the summary and the body in `lang`, in page order."""
    found = statements_in_html(getattr(page, f"summary_{lang}"))
    return found + [(s.claim, s.words) for s in statements_in_blocks(list(getattr(page, f"body_{lang}")))]

PROVIDERS = {1: "Baseten", 2: "Together AI"}
MODELS = {1: "GLM-5.3", 2: "DeepSeek V4.1 Flash 1017", 3: "GLM-5.3-Flash"}
FAST, TOGETHER, BASETEN = Host(1, "Fast"), Host(2), Host(1)
SPEED = "output_speed_median"


def words(*conditions, lang):
    with translation.override(lang):
        return claim_words(Claim(tuple(conditions)), (PROVIDERS, MODELS))


# (condition, English, Spanish): every kind of condition the review words, affirmative and negated.
SENTENCES = [
    (Condition(LEADS, SPEED, (1,), host=FAST, quantifier=ALL),
     "Baseten (Fast) ranks first on output speed for GLM-5.3",
     "Baseten (Fast) es el primero en velocidad de salida en GLM-5.3"),
    (Condition(LEADS, SPEED, (1, 2), host=FAST, quantifier=ALL),
     "Baseten (Fast) ranks first on output speed for each of these models: GLM-5.3 and DeepSeek V4.1 Flash 1017",
     "Baseten (Fast) es el primero en velocidad de salida en cada uno de estos modelos: GLM-5.3 y DeepSeek V4.1 "
     "Flash 1017"),
    (Condition(LEADS, SPEED, (1, 2, 3), host=FAST, quantifier=EXACTLY, n=2),
     "Baseten (Fast) ranks first on output speed for exactly 2 of these models: GLM-5.3, DeepSeek V4.1 Flash 1017 "
     "and GLM-5.3-Flash",
     "Baseten (Fast) es el primero en velocidad de salida en exactamente 2 de estos modelos: GLM-5.3, DeepSeek "
     "V4.1 Flash 1017 y GLM-5.3-Flash"),
    (Condition(LEADS, SPEED, (1, 3), host=TOGETHER, quantifier=EXACTLY, n=0),
     "Together AI ranks first on output speed for none of these models: GLM-5.3 and GLM-5.3-Flash",
     "Together AI no es el primero en velocidad de salida en ninguno de estos modelos: GLM-5.3 y GLM-5.3-Flash"),
    (Condition(LEADS, SPEED, (1, 3), host=TOGETHER, quantifier=ANY),
     "Together AI ranks first on output speed for at least one of these models: GLM-5.3 and GLM-5.3-Flash",
     "Together AI es el primero en velocidad de salida en al menos uno de estos modelos: GLM-5.3 y GLM-5.3-Flash"),
    (Condition(RANK, SPEED, (1,), host=TOGETHER, n=2),
     "Together AI is among the top 2 on output speed for GLM-5.3",
     "Together AI está entre los 2 primeros en velocidad de salida en GLM-5.3"),
    (Condition(RANK, SPEED, (1,), host=TOGETHER, n=3, negated=True),
     "Together AI is not among the top 3 on output speed for GLM-5.3",
     "Together AI no está entre los 3 primeros en velocidad de salida en GLM-5.3"),
    (Condition(COMPARE, SPEED, (1,), host=FAST, other=TOGETHER, relation="faster", factor=Decimal("1.5")),
     "Baseten (Fast) is at least 1.5 times as fast as Together AI on GLM-5.3 (output speed)",
     "Baseten (Fast) es al menos 1.5 veces más rápido que Together AI en GLM-5.3 (velocidad de salida)"),
    (Condition(COMPARE, "price_output", (1,), host=BASETEN, other=FAST, relation="cheaper"),
     "Baseten is cheaper than Baseten (Fast) on GLM-5.3 (output price per 1M)",
     "Baseten es más barato que Baseten (Fast) en GLM-5.3 (precio de salida por 1M)"),
    (Condition(COUNT, SPEED, (1,), relation="eq", n=6),
     "exactly 6 hosts are measured on GLM-5.3 (output speed)",
     "se miden exactamente 6 proveedores en GLM-5.3 (velocidad de salida)"),
    (Condition(VALUE, SPEED, (1,), host=FAST, relation="above", threshold=Decimal("200")),
     "Baseten (Fast)'s output speed on GLM-5.3 is above 200.0 tokens/s",
     "Baseten (Fast) supera 200.0 tokens/s de velocidad de salida en GLM-5.3"),
    (Condition(MEASURED, SPEED, (3,), host=BASETEN, negated=True),
     "Baseten is not measured on GLM-5.3-Flash",
     "Baseten no está medido en GLM-5.3-Flash"),
]


@pytest.mark.parametrize(("condition", "english", "spanish"), SENTENCES)
def test_each_kind_of_claim_reads_as_a_sentence_in_both_languages(condition, english, spanish):
    assert words(condition, lang="en") == english
    assert words(condition, lang="es") == spanish


def test_the_spanish_no_longer_says_lidera_en_todos():
    """The review read "Baseten (Fast) lidera Velocidad de salida en todos GLM-5.3"."""
    leads = Condition(LEADS, SPEED, (1,), host=FAST, quantifier=ALL)
    faster = Condition(COMPARE, SPEED, (1,), host=FAST, other=TOGETHER, relation="faster", factor=Decimal("1.5"))
    text = words(leads, faster, lang="es")
    assert text == ("Baseten (Fast) es el primero en velocidad de salida en GLM-5.3; Baseten (Fast) es al menos "
                    "1.5 veces más rápido que Together AI en GLM-5.3 (velocidad de salida)")
    assert "todos" not in text and "Velocidad" not in text


def rows_by_language(html):
    """{language: [(kind, figure, was, now, edit link)]} in the order the review lists them."""
    found = {}
    for row in BeautifulSoup(html, "html.parser").select("tr[data-item]"):
        link = row.select_one("a.edit-sentence")
        cells = [row.select_one(f"td.{name}").get_text(" ", strip=True) for name in ("figure", "was", "now")]
        found.setdefault(row["data-language"], []).append((row["data-kind"], *cells, link["href"] if link else None))
    return found


def statement_words(html):
    return [words for _claim, words in statements_in_html(html or "")]


def textarea(html, anchor):
    box = BeautifulSoup(html, "html.parser").find("textarea", id=anchor)
    return box.get_text() if box else ""


def test_the_review_lists_every_false_statement_first_and_links_to_where_its_words_are_edited(
    editor_client, demo_site
):
    correct_baseten_fast()
    page = demo_article()
    review = rows_by_language(editor_client.get("/admin/reviews/changes/").text)
    workspace = editor_client.get(f"/admin/translate/articles/articlepage/{page.pk}/").text
    english_blocks = {child.id: child for child in page.body_en}

    for lang in ("en", "es"):
        really_false = sorted(words for claim, words in every_statement(page, lang)
                              if not evaluate(claim, page.page_data).holds)
        assert len(really_false) >= 6
        rows = review[lang]
        statements = [row for row in rows if row[0] == "statement"]
        assert rows[:len(statements)] == statements, "the false statements come first"
        assert sorted(row[1] for row in statements) == really_false, "every false statement is listed"
        for _kind, sentence, was, now, link in statements:
            assert was, sentence  # what it claimed, in words
            # The evidence: the figures that broke it, as the page prints them.
            assert re.search(r"(Output speed|Velocidad de salida): \d+\.\d", now), now
            path, _hash, anchor = (link or "").partition("#")
            if lang == "en":
                assert path == f"/admin/pages/{page.pk}/edit/" and anchor, link
                if anchor == "panel-child-content-summary_en-section":
                    assert sentence in statement_words(page.summary_en)
                else:
                    block = english_blocks[re.fullmatch(r"block-(.+)-section", anchor).group(1)]
                    assert sentence in [s.words for s in statements_in_blocks([block])], (anchor, sentence)
            else:
                # The segment whose Spanish holds the words: where a translator fixes them.
                assert path == f"/admin/translate/articles/articlepage/{page.pk}/", link
                assert re.fullmatch(r"text-\d+", anchor), link
                assert sentence[:40] in textarea(workspace, anchor), (anchor, sentence)
                assert "en todos" not in was and " lidera " not in was, was
