"""Ranking words next to a provider's name ("leads", "runner-up", "lidera", "al frente"…) are claims
the data may stop supporting: flagged in any text field, with that provider's own ranks as evidence."""

import pytest

from articles.figure_check import check_page
from tests.factories import (
    EndpointFactory,
    LanguageModelFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)
from tests.figures_support import glm_data, make_article, paragraph, ref_html, table
from tests.test_figure_check_fields import cards, faq

pytestmark = pytest.mark.django_db


@pytest.fixture
def glm():
    return glm_data()


COUNT = "a count of hosts or models the page's data does not give"


def claims(findings, lang):
    """Ranking claims; typed counts are flagged too (tests/test_figure_check_any_count.py)."""
    return [(f.typed, f.place) for f in findings if f.language == lang and f.figures[0] != COUNT]


def counts(findings, lang):
    return [(f.typed, f.place) for f in findings if f.language == lang and f.figures[0] == COUNT]


def evidence(findings, lang, typed):
    return next(f.figures for f in findings if f.language == lang and f.typed == typed)


def test_the_issues_sentences_are_flagged_with_the_named_providers_own_ranks(glm):
    ProviderFactory(name="Cerebras", slug="cerebras")  # on the site, not measured on this page
    body = [
        table(glm),
        cards(
            glm,
            ("fast", "Premium tier.", "<p>Leads two of the three current models on output speed.</p>"),
            ("together", "Runner-up on output speed for every current model.", "<p>Wide catalogue.</p>"),
        ),
        paragraph("<p>Baseten's Fast tier tops the speed ranking on GLM-5.3. Novita AI serves it from Asia.</p>"),
        faq("Which host starts first?", "<p>It depends on the model. Z.ai is never ahead on first chunk.</p>"),
    ]
    body_es = [
        table(glm),
        cards(
            glm,
            ("fast", "Nivel prémium.", "<p>Lidera dos de los tres modelos actuales en velocidad.</p>"),
            ("together", "Segundo en velocidad de salida en cada modelo actual.", "<p>Catálogo amplio.</p>"),
        ),
        paragraph("<p>El nivel Fast de Baseten encabeza la velocidad en GLM-5.3. Novita AI sirve desde Asia.</p>"),
        faq("¿Qué proveedor empieza antes?", "<p>Depende del modelo. Z.ai nunca va por delante en latencia.</p>"),
    ]
    page = make_article(body, body_es=body_es, sources=[glm["source"]])
    page.summary_en = "Which host is quickest depends on the model. Baseten's premium tier leads two of the current models."
    page.summary_es = "Depende del modelo. Cerebras sigue al frente en la referencia GPT-OSS 120B."

    findings = check_page(page)

    assert claims(findings, "en") == [
        ("Baseten", "Summary"),
        ("Leads", "Provider cards (block 2) › Baseten › strengths"),
        ("Runner-up", "Provider cards (block 2) › Together AI › one-line summary"),
        ("Baseten", "Paragraph (block 3)"),
        ("Z.ai", "FAQ (block 4) › questions 1 › answer"),
    ]
    assert claims(findings, "es") == [
        ("Cerebras", "Summary"),
        ("Lidera", "Provider cards (block 2) › Baseten › strengths"),
        ("Segundo", "Provider cards (block 2) › Together AI › one-line summary"),
        ("Baseten", "Paragraph (block 3)"),
        ("Z.ai", "FAQ (block 4) › questions 1 › answer"),
    ]
    # The counts in them are flagged as well: this page measures one model, so "two of the current
    # models" is a count its data does not give.
    assert counts(findings, "en") == [
        ("two of the current models", "Summary"),
        ("two of the three current models", "Provider cards (block 2) › Baseten › strengths"),
    ]
    assert counts(findings, "es") == [("dos de los tres modelos", "Provider cards (block 2) › Baseten › strengths")]
    # Each claim quotes its own provider's rank, in the metric the sentence names.
    assert evidence(findings, "en", "Leads") == [
        "ranking claim about Baseten", "Baseten (Fast) · GLM-5.3 · Output speed: rank 1 of 4",
    ]
    assert evidence(findings, "en", "Runner-up") == [
        "ranking claim about Together AI", "Together AI · GLM-5.3 · Output speed: rank 2 of 4",
    ]
    assert evidence(findings, "en", "Z.ai") == ["ranking claim about Z.ai", "Z.ai · GLM-5.3 · First chunk: rank 3 of 4"]
    assert evidence(findings, "es", "Cerebras") == [
        "ranking claim about Cerebras", "no figure of Cerebras on this page",
    ]


def test_plain_mentions_unnamed_sentences_and_references_are_not_claims(glm):
    ProviderFactory(name="GLM", slug="glm")  # a maker whose name starts its model's: "GLM-5.3" is the model
    leader = ref_html(glm["model"], "output_speed_median", compare="leader")
    body = [
        table(glm),
        cards(glm, ("fast", "Hosts GLM-5.3 in the US.", f"<p>{leader} leads on output speed.</p>")),
        paragraph("<p>Baseten and Together AI both serve GLM-5.3 with a 0.5 s first chunk target.</p>"),
        faq("Which host is fastest?", "<p>The fastest host changes every hour; the table shows who leads now.</p>"),
        paragraph("<p>Every GLM-5.3 host here is the fastest one its operator sells.</p>"),
    ]
    page = make_article(body, sources=[glm["source"]])
    assert check_page(page) == []


def deepseek_data(glm):
    """A second model, made and hosted by DeepSeek, hosted by Baseten's Fast tier too."""
    model = LanguageModelFactory(name="DeepSeek V4.1", slug="deepseek-v4-1")
    source = SourceFactory(publisher="Artificial Analysis", title="DeepSeek V4.1 providers")
    deepseek = EndpointFactory(provider=ProviderFactory(name="DeepSeek", slug="deepseek"), model=model)
    fast = EndpointFactory(provider=glm["fast"].provider, model=model, tier="Fast")
    SnapshotFactory(source=source, published=True, values=[
        (fast, "output_speed_median", "250.0"), (fast, "ttfc_median", "0.50"),
        (deepseek, "output_speed_median", "90.0"), (deepseek, "ttfc_median", "1.50"),
    ])
    return {"model": model, "source": source}


def test_evidence_is_the_claimants_ranks_in_the_metric_and_on_the_models_the_sentence_names(glm):
    deepseek = deepseek_data(glm)
    both = {"type": "provider_cards", "value": {
        **cards(glm)["value"],
        "models": [{"model": glm["model"].pk, "source": glm["source"].pk},
                   {"model": deepseek["model"].pk, "source": deepseek["source"].pk}],
        "cards": [{"provider": glm["fast"].provider.pk, "summary": "Leads on both models.",
                   "strengths": "<p>Tops the speed ranking on GLM-5.3 and on DeepSeek.</p>", "limitations": ""}],
    }}
    body = [
        table(glm), table(deepseek), both,
        faq("Which host is the most reliable?", "<p>Z.ai has the best task success of all.</p>"),
        paragraph("<p>Novita AI leads DeepSeek V4.1 on output speed.</p>"),
    ]
    page = make_article(body, sources=[glm["source"], deepseek["source"]])

    findings = check_page(page)

    assert claims(findings, "en") == [
        ("Leads", "Provider cards (block 3) › Baseten › one-line summary"),
        # "on DeepSeek" is the model: the claim is the card's provider's, not DeepSeek's.
        ("Tops", "Provider cards (block 3) › Baseten › strengths"),
        ("Z.ai", "FAQ (block 4) › questions 1 › answer"),
        ("Novita AI", "Paragraph (block 5)"),
    ]
    speed = ["Baseten (Fast) · GLM-5.3 · Output speed: rank 1 of 4",
             "Baseten (Fast) · DeepSeek V4.1 · Output speed: rank 1 of 2"]
    # A sentence naming no metric is about the one the cards are ordered by.
    assert evidence(findings, "en", "Leads") == ["ranking claim about Baseten", *speed]
    assert evidence(findings, "en", "Tops") == ["ranking claim about Baseten", *speed]
    # No task success is measured here, and Novita AI is not measured on DeepSeek V4.1: said so,
    # instead of quoting Z.ai's or Novita AI's other ranks.
    assert evidence(findings, "en", "Z.ai") == [
        "ranking claim about Z.ai", "no rank of Z.ai on this page for task success"]
    assert evidence(findings, "en", "Novita AI") == [
        "ranking claim about Novita AI", "no rank of Novita AI on this page for DeepSeek V4.1 · output speed"]


def test_in_a_sentence_with_several_claims_each_provider_has_the_models_named_after_it(glm):
    deepseek = deepseek_data(glm)
    page = make_article(
        [table(glm), table(deepseek),
         paragraph("<p>Baseten's premium tier leads DeepSeek V4.1 on output speed, and Z.ai leads GLM-5.3.</p>")],
        sources=[glm["source"], deepseek["source"]],
    )
    findings = check_page(page)
    assert claims(findings, "en") == [("Baseten", "Paragraph (block 3)"), ("Z.ai", "Paragraph (block 3)")]
    assert evidence(findings, "en", "Baseten") == [
        "ranking claim about Baseten", "Baseten (Fast) · DeepSeek V4.1 · Output speed: rank 1 of 2"]
    assert evidence(findings, "en", "Z.ai") == [
        "ranking claim about Z.ai", "Z.ai · GLM-5.3 · Output speed: rank 3 of 4"]


def test_a_ranking_claim_is_offered_as_a_checked_statement_not_as_a_figure():
    from articles.figure_check import TypedFigure

    claim = TypedFigure("en", "Paragraph (block 3)", "tops the speed ranking", ["Baseten (Fast): 1st on GLM-5.3"])
    figure = TypedFigure("en", "Paragraph (block 3)", "283.4", ["Baseten (Fast) · output speed"])
    assert "make it a checked statement or a data reference?" in claim.message()
    assert "insert it as a reference?" in figure.message()
