"""The typed-figure check on a page built from the demo's data (load_demo), with the issue's
sentences typed as plain text in every kind of field: each is found, in both languages, with
evidence about the provider and the metric it speaks of, and pointed at its other language."""

import pytest

from articles.figure_check import check_page
from benchmarks.models import LanguageModel, Source
from reviews import tasks
from tests.figures_support import make_article, paragraph, table
from tests.test_figure_check_fields import faq

pytestmark = pytest.mark.django_db

MODELS = ["glm-5-3", "deepseek-v4-1-flash-1017", "glm-5-3-flash", "gpt-oss-120b"]


def demo_models():
    models = [LanguageModel.objects.get(slug=slug) for slug in MODELS]
    return [{"model": model, "source": Source.objects.get(title_en=f"{model.name} providers")} for model in models]


def chart(data, note):
    return {"type": "bar_chart", "value": {
        "model": data["model"].pk, "source": data["source"].pk, "metric": "output_speed_median",
        "name_style": "short", "note": note}}


def cards(models, texts):
    """texts: {provider name: (summary, strengths, limitations)}."""
    from benchmarks.models import Provider

    return {"type": "provider_cards", "value": {
        "metric": "output_speed_median",
        "models": [{"model": data["model"].pk, "source": data["source"].pk} for data in models[:3]],
        "cards": [{"provider": Provider.objects.get(name=name).pk, "summary": summary,
                   "strengths": f"<p>{strengths}</p>", "limitations": f"<p>{limitations}</p>"}
                  for name, (summary, strengths, limitations) in texts.items()],
    }}


def body(models, lang):
    en = lang == "en"
    return [
        *[table(data) for data in models],
        paragraph(
            "<p>Of the six hosts measured, one stands well ahead: Together AI, Baseten's premium tier, which is "
            "sold as a separate, more expensive product.</p>" if en else
            "<p>Se miden seis proveedores y uno va claramente por delante: Together AI, el nivel prémium de "
            "Baseten, que se vende como un producto aparte.</p>"),
        chart(models[0], "Baseten's Fast tier leads this chart." if en else "El nivel Fast de Baseten lidera este gráfico."),
        chart(models[1], "DeepInfra is the slowest host here." if en else "DeepInfra es el más lento aquí."),
        cards(models, {
            "Baseten": ("Leads two of the three current models.", "Tops the speed ranking on GLM-5.3 and on DeepSeek.",
                        "Never the cheapest.") if en else
                       ("Lidera dos de los tres modelos actuales.", "Encabeza la velocidad en GLM-5.3 y en DeepSeek.",
                        "Nunca es el más barato."),
            "Together AI": ("Runner-up on output speed for every current model.", "Second on GLM-5.3-Flash too.",
                            "Never first on output speed.") if en else
                           ("Segundo en velocidad de salida en cada modelo actual.", "Segundo también en GLM-5.3-Flash.",
                            "Nunca primero en velocidad de salida."),
            "Novita AI": ("Measured widely.", "Wide catalogue.", "Slow.") if en else
                         ("Medido en muchos modelos.", "Catálogo amplio.", "En la mitad baja de cada clasificación."),
        }),
        faq("Is Baseten the fastest host on GLM-5.3?", "<p>Yes: Baseten's Fast tier leads GLM-5.3 on output speed.</p>")
        if en else faq("¿Es Baseten el más rápido en GLM-5.3?",
                       "<p>Sí: el nivel Fast de Baseten lidera GLM-5.3 en velocidad de salida.</p>"),
    ]


@pytest.fixture
def page(demo_site):
    models = demo_models()
    page = make_article(body(models, "en"), body_es=body(models, "es"), sources=[d["source"] for d in models],
                        title="Demo-like")
    return page


def card_place(provider, field):
    return f"Provider cards (block 8) › {provider} › {field}"


def typed(findings, lang, place):
    return [f.typed for f in findings if f.language == lang and f.place == place]


def test_the_issues_sentences_typed_in_a_demo_like_page_are_each_found(page, editor_client):
    page.summary_en = ("Which host is quickest depends on the model you call. "
                       "Baseten's premium tier leads two of the current models.")
    page.summary_es = "Depende del modelo. Cerebras sigue al frente en la referencia GPT-OSS 120B."
    findings = check_page(page)

    card = "Provider cards (block 8) › %s › %s"
    # 1) the summary; "Cerebras" in the Spanish summary.
    assert typed(findings, "en", "Summary") == ["two of the current models", "Baseten"]
    assert typed(findings, "es", "Summary") == ["Cerebras"]
    # 2) the paragraph: both names next to "ahead", and the typed count of hosts.
    assert typed(findings, "en", "Paragraph (block 5)") == ["six hosts", "Together AI", "Baseten"]
    assert typed(findings, "es", "Paragraph (block 5)") == ["seis proveedores", "Together AI", "Baseten"]
    # "a more expensive product" describes it: the claim "ahead" is still checked against ranks.
    together = next(f for f in findings if f.language == "en" and f.typed == "Together AI")
    assert "Together AI · GLM-5.3 · Output speed: rank 2 of 6" in together.figures
    never = next(f for f in findings if f.place == card_place("Baseten", "limitations"))
    assert never.figures == ["ranking claim about Baseten", "no rank of Baseten on this page for price"]
    # 3)-5) every text of the cards, and every chart note.
    assert typed(findings, "en", card % ("Baseten", "one-line summary")) == ["two of the three current models", "Leads"]
    assert typed(findings, "en", card % ("Baseten", "strengths")) == ["Tops"]
    assert typed(findings, "en", card % ("Baseten", "limitations")) == ["Never"]
    assert typed(findings, "en", card % ("Together AI", "one-line summary")) == ["Runner-up"]
    assert typed(findings, "en", card % ("Together AI", "strengths")) == ["Second"]
    assert typed(findings, "en", card % ("Together AI", "limitations")) == ["Never"]
    assert typed(findings, "es", card % ("Baseten", "strengths")) == ["Encabeza"]
    assert typed(findings, "es", card % ("Together AI", "one-line summary")) == ["Segundo"]
    assert typed(findings, "en", "Bar chart (block 6) › note under the chart") == ["Baseten"]
    assert typed(findings, "en", "Bar chart (block 7) › note under the chart") == ["DeepInfra"]
    assert typed(findings, "es", "Bar chart (block 7) › note under the chart") == ["DeepInfra"]
    # The FAQ, question and answer.
    assert typed(findings, "en", "FAQ (block 9) › questions 1 › question") == ["Baseten"]
    assert typed(findings, "es", "FAQ (block 9) › questions 1 › answer") == ["Baseten"]

    # "on DeepSeek" is the model: the evidence is Baseten's output speed on the two models named.
    tops = next(f for f in findings if f.typed == "Tops")
    assert tops.figures[0] == "ranking claim about Baseten"
    assert all(line.startswith("Baseten") and "Output speed" in line for line in tops.figures[1:])
    assert {line.split(" · ")[1] for line in tops.figures[1:]} == {"GLM-5.3", "DeepSeek V4.1 Flash 1017"}
    # The FAQ answer's evidence is Baseten's, on GLM-5.3, in output speed: nothing unrelated.
    answer = next(f for f in findings if f.language == "en" and f.place.endswith("answer"))
    assert answer.figures[1:] and all(
        line.startswith("Baseten") and " · GLM-5.3 · Output speed" in line for line in answer.figures[1:])

    # A Spanish hit whose English says nothing flagged points at the English field, and back.
    novita = next(f for f in findings if f.place == card % ("Novita AI", "limitations"))
    assert (novita.language, novita.typed) == ("es", "cada")
    assert novita.counterpart == {"language": "en", "place": card % ("Novita AI", "limitations"), "text": "Slow."}
    cerebras = next(f for f in findings if f.typed == "Cerebras")
    assert cerebras.counterpart["language"] == "en" and "Baseten's premium tier" in cerebras.counterpart["text"]

    # The report names the field.
    tasks.check_typed_figures(page.latest_revision_id, "en")
    report = editor_client.get("/admin/reviews/typed-figures/").content.decode()
    assert card % ("Baseten", "strengths") in report and "EN counterpart: " in report
