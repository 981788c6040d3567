"""Issue 24, second audit: a typed count the data does not give is flagged too (the stale count is
exactly the one that no longer matches), and ranking words missing from the lists ("led", "costs
extra", "liderar", "menor", "ventaja") are read as claims in both languages."""

import pytest

from articles.figure_check import check_page
from tests.figures_support import glm_data, make_article, paragraph, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def glm():
    return glm_data()


def findings_of(page, lang):
    return [(f.typed, f.figures) for f in check_page(page) if f.language == lang]


def test_a_count_of_hosts_the_data_does_not_give_is_flagged_with_the_counts_it_does(glm):
    page = make_article(
        [table(glm), paragraph("<p>Eight hosts are measured on GLM-5.3, and 12 models are covered.</p>")],
        body_es=[table(glm), paragraph("<p>Se miden ocho proveedores en GLM-5.3.</p>")],
        sources=[glm["source"]],
    )
    english = findings_of(page, "en")
    assert [typed for typed, _figures in english] == ["Eight hosts", "12 models"]
    eight = english[0][1]
    assert eight[0] == "a count of hosts or models the page's data does not give"
    assert "GLM-5.3 · hosts measured" in eight  # what the data does count, beside it
    assert [typed for typed, _figures in findings_of(page, "es")] == ["ocho proveedores"]


def test_one_and_counts_inside_other_words_are_not_counts(glm):
    page = make_article(
        [table(glm), paragraph("<p>One host is new. The 120B model and 2026 benchmarks are out of scope.</p>")],
        sources=[glm["source"]],
    )
    assert findings_of(page, "en") == []


@pytest.mark.parametrize("lang, sentence", [
    ("en", "Baseten led on GLM-5.3 output speed."),
    ("en", "Baseten’s Fast tier is quick, but that speed costs extra."),
    ("es", "Baseten lideró la velocidad de salida en GLM-5.3."),
    ("es", "Baseten está en el modelo sin liderar ninguno de los demás."),
    ("es", "Baseten tiene la menor latencia del grupo."),
    ("es", "Una ventaja clara de Baseten frente al resto."),
])
def test_ranking_words_in_either_language_make_a_provider_name_a_claim(glm, lang, sentence):
    body = [table(glm), paragraph(f"<p>{sentence}</p>")]
    page = make_article(body, body_es=body, sources=[glm["source"]])
    assert "Baseten" in [typed for typed, _figures in findings_of(page, lang)], sentence


def test_a_second_claimant_is_judged_on_its_own_clause(glm):
    body = [table(glm), paragraph("<p>Z.ai tops the accuracy index while Baseten leads on speed.</p>")]
    page = make_article(body, sources=[glm["source"]])
    evidence = dict(findings_of(page, "en"))
    assert any("Accuracy" in line or "accuracy" in line for line in evidence["Z.ai"])
    # Baseten's evidence is its speed rank, never its accuracy rank from the clause before.
    assert evidence["Baseten"][1:] and all("ccuracy" not in line for line in evidence["Baseten"]), evidence["Baseten"]
    assert any("Output speed" in line for line in evidence["Baseten"])
