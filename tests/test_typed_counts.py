"""Counts of models typed in words ("two of the three current models", "dos de los tres modelos
actuales") are flagged: the whole "N of the M" phrase, with the counts of the page and of the
provider the text is about that it may state."""

import pytest

from articles.figure_check import check_page
from tests.factories import EndpointFactory, LanguageModelFactory, SnapshotFactory, SourceFactory
from tests.figures_support import glm_data, make_article, paragraph, table
from tests.test_figure_check_fields import cards
from tests.test_ranking_claims import deepseek_data

pytestmark = pytest.mark.django_db


def one_host_model(name, provider, value, baseline=False):
    model = LanguageModelFactory(name=name, slug=name.lower().replace(" ", "-"), is_baseline=baseline)
    source = SourceFactory(publisher="Artificial Analysis", title=f"{name} providers")
    endpoint = EndpointFactory(provider=provider, model=model)
    SnapshotFactory(source=source, published=True, values=[(endpoint, "output_speed_median", value)])
    return {"model": model, "source": source}


def counts(findings, lang):
    return [(f.typed, f.place, f.figures) for f in findings if f.language == lang and "model" in f.typed]


def test_counts_of_models_are_flagged_as_one_phrase_with_what_they_may_count():
    glm = glm_data()
    deepseek = deepseek_data(glm)
    qwen = one_host_model("Qwen 4", glm["together"].provider, "120.0")
    baseline = one_host_model("GPT-OSS 120B", glm["novita"].provider, "300.0", baseline=True)
    tables = [table(data) for data in (glm, deepseek, qwen, baseline)]
    card = "Provider cards (block 5) › Baseten › strengths"
    page = make_article(
        [*tables, cards(glm, ("fast", "", "<p>Leads two of the three current models.</p>")),
         # "inside one model" is how a sentence speaks, even of a provider measured on one model.
         paragraph("<p>Z.ai serves two current models. Z.ai is ranked inside one model.</p>")],
        body_es=[*tables, cards(glm, ("fast", "", "<p>Lidera dos de los tres modelos actuales.</p>")),
                 paragraph("<p>Z.ai sirve dos modelos actuales.</p>")],
        sources=[data["source"] for data in (glm, deepseek, qwen, baseline)],
    )

    findings = check_page(page)

    # "Leads two of …" is about leading: Baseten's leads are quoted, not how many models it is measured on.
    baseten = ["Baseten · leads Output speed on 2 models", "current models measured on this page"]
    assert counts(findings, "en") == [
        ("two of the three current models", card, baseten),
        # Z.ai is measured on one model: two is only a part of the four, which the data decides.
        ("two current models", "Paragraph (block 6)", ["a part of the 4 models measured on this page"]),
    ]
    assert counts(findings, "es") == [
        ("dos de los tres modelos", card, baseten),
        ("dos modelos", "Paragraph (block 6)", ["a part of the 4 models measured on this page"]),
    ]
