"""Every text field of the page itself is read by the typed-figure check, in both languages: the
publisher disclosure (printed at the top of the article) and the search description, which stays an
editor's override of the description built from the checked summary and so, being plain text that
can never be a checked statement, has any claim typed there flagged."""

import pytest

from articles.figure_check import check_page
from tests.figures_support import glm_data, make_article, table

pytestmark = pytest.mark.django_db


def test_claims_typed_in_the_disclosure_and_the_search_description_are_flagged():
    glm = glm_data()
    page = make_article([table(glm)], sources=[glm["source"]])
    page.publisher_disclosure_en = "<p>Published by Novita AI, which leads every model on output speed.</p>"
    page.publisher_disclosure_es = "<p>Publicado por Novita AI, que lidera todos los modelos en velocidad.</p>"
    page.search_description_en = "Baseten's Fast tier leads GLM-5.3 on output speed."
    page.search_description_es = "El nivel Fast de Baseten lidera GLM-5.3 en velocidad."

    findings = check_page(page)

    for lang in ("en", "es"):
        found = {(f.place, f.typed): f for f in findings if f.language == lang}
        assert list(found) == [("Search description", "Baseten"), ("Publisher disclosure", "Novita AI")], found
        assert found[("Publisher disclosure", "Novita AI")].figures == [
            "ranking claim about Novita AI", "Novita AI · GLM-5.3 · Output speed: rank 4 of 4"]
        assert found[("Search description", "Baseten")].figures == [
            "ranking claim about Baseten", "Baseten (Fast) · GLM-5.3 · Output speed: rank 1 of 4"]
        # Each points at the same field in the other language.
        assert found[("Publisher disclosure", "Novita AI")].counterpart["place"] == "Publisher disclosure"
