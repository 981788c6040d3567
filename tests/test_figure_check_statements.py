"""A checked statement (<a linktype="statement" …>words</a>, stored in rich text) is tied to the data:
the typed-figure check reads the words around it, never the words inside it."""

import pytest

from articles.figure_check import check_page, rich_text_plain, without_checked_statements
from tests.figures_support import glm_data, make_article, paragraph, table

pytestmark = pytest.mark.django_db

STATEMENT = '<a linktype="statement" id="7">Baseten leads at 283.4 tokens/s</a>'


def test_the_helper_leaves_a_statements_words_out_and_keeps_the_rest():
    html = f"<p>{STATEMENT}, and Together AI is runner-up.</p>"
    kept = without_checked_statements(html)
    assert "Baseten" not in kept and "283.4" not in kept and "Together AI is runner-up" in kept
    # Single quotes, other attributes first, markup inside the element: still one statement.
    other = "<p><a id='3' linktype='statement'>Z.ai <b>tops</b> accuracy</a>. Z.ai is slow.</p>"
    assert "tops" not in rich_text_plain(other) and "Z.ai is slow." in rich_text_plain(other)
    # An ordinary link is read as before.
    assert "Baseten leads" in rich_text_plain('<p><a href="https://example.com/">Baseten leads</a></p>')


def test_words_inside_a_checked_statement_are_not_flagged_and_words_outside_are():
    glm = glm_data()
    page = make_article(
        [table(glm), paragraph(f"<p>{STATEMENT}, and Together AI is runner-up.</p>")], sources=[glm["source"]]
    )
    # Set on the page as the Spanish body will hold it (the stored translation's allow-list does not
    # know the element yet: it is built in parallel).
    page.body_es = [table(glm), paragraph(
        '<p><a linktype="statement" id="8">Baseten lidera con 283.4 tokens/s</a>; Z.ai nunca va por delante.</p>'
    )]
    found = [(f.language, f.typed) for f in check_page(page)]
    assert found == [("en", "Together AI"), ("es", "Z.ai")]
    together = next(f for f in check_page(page) if f.typed == "Together AI")
    assert "…" in together.context and "Baseten" not in together.context
