"""The figures a false statement is shown with (its mark's panel, the review of changed figures) are
the ones that broke it: after the issue's correction (Baseten (Fast)'s GLM-5.3 output speed 283.4 →
140), "Leads two of the three current models" and "runner-up … for every current model" are shown
with GLM-5.3's figures, not with GLM-5.3-Flash's leader (CoreWeave) or DeepSeek's (Baseten (Fast)
at 837.1), which they never disputed."""

import pytest

from articles.models import ArticlePage
from articles.statements.evaluate import evaluate
from articles.statements.markup import evidence_lines
from reviews.models import FigureChange
from tests.test_demo_statements import correct_baseten_fast, every_statement

pytestmark = pytest.mark.django_db

CLAIMS = {
    "en": ("Leads two of the three current models", "runner-up on output speed for every current model"),
    "es": ("Lidera dos de los tres modelos actuales", "segundo en velocidad de salida en todos los modelos actuales"),
}


def demo_article():
    return ArticlePage.objects.get(slug_en="fastest-llm-api")


def statement(page, lang, phrase):
    return next((claim, words) for claim, words in every_statement(page, lang) if phrase in words)


def test_a_broken_lead_claim_is_shown_with_the_figures_that_broke_it(demo_site):
    correct_baseten_fast()
    page = demo_article()
    for lang, phrases in CLAIMS.items():
        for phrase in phrases:
            claim, words = statement(page, lang, phrase)
            outcome = evaluate(claim, page.page_data)
            assert not outcome.holds, words
            lines = [line["text"] for line in evidence_lines(outcome)]
            # GLM-5.3, where the lead changed hands: Together AI now leads it.
            assert lines and all(" · GLM-5.3 · " in line for line in lines), lines
            assert lines[0] == "Together AI · GLM-5.3 · Output speed: 164.3", lines
            assert not any("CoreWeave" in line or "837.1" in line for line in lines), lines
            if phrase == phrases[0]:  # too few leads: the leader, and Baseten (Fast)'s corrected figure
                assert "Baseten (Fast) · GLM-5.3 · Output speed: 140.0" in lines, lines

    listed = FigureChange.objects.filter(page_id=page.pk, kind=FigureChange.Kind.STATEMENT)
    for lang, phrases in CLAIMS.items():
        for phrase in phrases:
            item = next(item for item in listed.filter(language=lang) if phrase in item.figure)
            assert "GLM-5.3 ·" in item.new_text and "CoreWeave" not in item.new_text, item.new_text
            assert "837.1" not in item.new_text and "GLM-5.3-Flash" not in item.new_text, item.new_text


def test_a_lead_claim_false_from_too_many_leads_shows_the_leads_and_who_they_beat(demo_site):
    """"Leads none of the current models" after the correction: Together AI now leads GLM-5.3, so
    its figure there and the one it is ahead of (Baseten's standard tier) are the evidence, nothing
    from the models it still does not lead."""
    from articles.statements.conditions import Claim, Condition, Host
    from benchmarks.models import Endpoint, LanguageModel

    correct_baseten_fast()
    together = Endpoint.objects.filter(provider__slug="together-ai").first()
    models = tuple(LanguageModel.objects.filter(slug__in=["glm-5-3", "deepseek-v4-1-flash-1017", "glm-5-3-flash"])
                   .values_list("pk", flat=True))
    claim = Claim((Condition(kind="leads", metric="output_speed_median", models=models,
                             host=Host(together.provider_id, ""), quantifier="exactly", n=0),))
    outcome = evaluate(claim, demo_article().page_data)
    assert not outcome.holds
    lines = [line["text"] for line in evidence_lines(outcome)]
    assert lines == ["Together AI · GLM-5.3 · Output speed: 164.3", "Baseten · GLM-5.3 · Output speed: 150.4"]
