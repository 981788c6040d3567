"""The typed-figure check reads every text field of a page in both languages: the page's own fields
(title, SEO fields, summary) and every text a body block stores (cards, notes, FAQ, CTA…)."""

import pytest

from reviews import tasks
from reviews.models import TypedFigureCheck
from tests.factories import EndpointFactory, LanguageModelFactory, SnapshotFactory, SourceFactory
from tests.figures_support import glm_data, make_article, ref_html, table
from tests.workspace_support import approve_spanish

pytestmark = pytest.mark.django_db


@pytest.fixture
def glm():
    return glm_data()


def cards(glm, *texts):
    """A provider cards block with one card per (endpoint key, summary, strengths) text."""
    return {
        "type": "provider_cards",
        "value": {
            "metric": "output_speed_median",
            "models": [{"model": glm["model"].pk, "source": glm["source"].pk}],
            "cards": [
                {"provider": glm[key].provider.pk, "summary": summary, "strengths": strengths, "limitations": ""}
                for key, summary, strengths in texts
            ],
        },
    }


def note(html):
    return {"type": "note", "value": {"style": "note", "text": html, "citations": []}}


def faq(question, answer):
    return {"type": "faq", "value": {"heading": "FAQ", "items": [{"question": question, "answer": answer}]}}


def call_to_action(heading, text):
    return {
        "type": "call_to_action",
        "value": {"heading": heading, "text": text, "button_text": "Compare", "url": "https://example.com/"},
    }


def checked_revision(page, spanish=None, **english):
    """The page's English text fields set and published, their Spanish approved as a translator's
    (the only way Spanish reaches a revision), and the latest revision checked as the worker does."""
    for name, value in english.items():
        setattr(page, f"{name}_en", value)
    page.save_revision().publish()
    if spanish:
        approve_spanish(page, spanish)
    revision_id = type(page).objects.get(pk=page.pk).latest_revision_id
    tasks.check_typed_figures(revision_id, "en")
    return TypedFigureCheck.objects.get(revision_id=revision_id, language="en").findings


def places(findings, lang):
    return [(f["typed"], f["place"]) for f in findings if f["language"] == lang]


def test_figures_typed_in_any_text_field_are_flagged_with_their_place(glm):
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"])
    body = [
        table(glm),
        cards(glm, ("fast", "Streams 283.4 tokens/s.", f"<p>{speed} tokens/s.</p>")),
        note("<p>A 0.90 s first chunk.</p>"),
        faq("Is 164.3 tokens/s fast?", "<p>It starts in 2.39 s.</p>"),
        call_to_action("Pay $2.10 per million", "From 0.67 s."),
    ]
    page = make_article(body, sources=[glm["source"], glm["pricing"]])

    findings = checked_revision(
        page,
        spanish={"summary": "Z.ai alcanza un 95.62% de precisión.", "search_description": "Hasta 283.4 tokens/s."},
        summary="Z.ai reaches 98.74% accuracy.",
        seo_title="GLM-5.3 at 105.5 tokens/s",
        search_description="Up to 150.4 tokens/s.",
    )

    in_body = [
        ("283.4", "Provider cards (block 2) › Baseten › one-line summary"),
        ("0.90", "Note / callout (block 3) › text"),
        ("164.3", "FAQ (block 4) › questions 1 › question"),
        ("2.39", "FAQ (block 4) › questions 1 › answer"),
        ("$2.10", "Call to action (block 5) › heading"),
        ("0.67", "Call to action (block 5) › text"),
    ]
    assert places(findings, "en") == [
        ("105.5", "SEO title"),
        ("150.4", "Search description"),
        ("98.74%", "Summary"),
        *in_body,
    ]
    assert places(findings, "es") == [("283.4", "Search description"), ("95.62%", "Summary"), *in_body]


def test_page_fields_without_figures_flag_nothing(glm):
    page = make_article([table(glm)], sources=[glm["source"]])
    findings = checked_revision(
        page, summary="Several hosts, one model.", seo_title="GLM-5.3 hosts", search_description="2026 prices"
    )
    assert findings == []


def test_a_typed_count_of_the_pages_models_is_flagged(glm):
    other = LanguageModelFactory(name="Qwen 4", slug="qwen-4")
    source = SourceFactory(publisher="Artificial Analysis", title="Qwen 4 providers")
    SnapshotFactory(source=source, values=[(EndpointFactory(provider=glm["zai"].provider, model=other),
                                            "output_speed_median", "99.9")], published=True)
    body = [table(glm), table({"model": other, "source": source}),
            faq("Which host leads?", "<p>Z.ai is measured on two of the current models.</p>")]
    page = make_article(body, body_es=[*body[:2], faq("¿Quién lidera?", "<p>Se mide en dos de los modelos.</p>")],
                        sources=[glm["source"], source])
    findings = checked_revision(page)
    assert places(findings, "en") == [("two of the current models", "FAQ (block 3) › questions 1 › answer")]
    assert places(findings, "es") == [("dos de los modelos", "FAQ (block 3) › questions 1 › answer")]
    # The text names Z.ai, measured on two models here: that count is quoted too.
    assert findings[0]["figures"] == ["models measured on this page", "Z.ai · measured on 2 models"]


def test_a_hit_in_one_language_points_at_the_same_field_in_the_other(glm, editor_client):
    from tests.factories import ProviderFactory

    ProviderFactory(name="Cerebras", slug="cerebras")
    body = [table(glm), cards(glm, ("novita", "Mid-table on speed.", "<p>Wide catalogue.</p>"))]
    body_es = [table(glm), cards(glm, ("novita", "En la mitad baja de cada clasificación.", "<p>Catálogo amplio.</p>"))]
    page = make_article(body, body_es=body_es, sources=[glm["source"]])
    findings = checked_revision(
        page, spanish={"summary": "Depende del modelo."}, summary="Cerebras still leads the GPT-OSS 120B baseline."
    )

    card = "Provider cards (block 2) › Novita AI › one-line summary"
    assert places(findings, "en") == [("Cerebras", "Summary")]
    assert places(findings, "es") == [("cada", card)]
    by_language = {f["language"]: f for f in findings}
    # The English card says nothing flagged, but it is the sentence to fix with the Spanish one.
    assert by_language["es"]["counterpart"] == {"language": "en", "place": card, "text": "Mid-table on speed."}
    assert by_language["en"]["counterpart"] == {"language": "es", "place": "Summary", "text": "Depende del modelo."}

    report = editor_client.get("/admin/reviews/typed-figures/").content.decode()
    assert 'data-counterpart-language="en"' in report and "EN counterpart: " + card in report
    assert "“Mid-table on speed.”" in report
    edit = editor_client.get(f"/admin/pages/{page.pk}/edit/").content.decode()
    assert "English counterpart: " + card + ", “Mid-table on speed.”" in edit


def test_sentence_parts_difference_labels_and_captions_are_read_as_any_text(glm):
    """Nothing names these fields: the check walks every text block, so they are read like the rest."""
    columns = [{"field": "output_speed_median", "difference_to_leader": True,
                "difference_label_en": "Δ vs 283.4 tokens/s"}]
    sentence = {"type": "provider_list", "value": {
        "model": glm["model"].pk, "source": glm["source"].pk, "pattern": "custom", "order_by": "output_speed_median",
        "parts": [{"field": "output_speed_median", "before_en": "Z.ai leads with", "after_en": "ahead of 164.3"}],
    }}
    chart = {"type": "bar_chart", "value": {"model": glm["model"].pk, "source": glm["source"].pk,
                                            "metric": "output_speed_median", "caption_en": "Up to 150.4 tokens/s"}}
    page = make_article([table(glm, columns=columns, caption="Baseten tops it"), sentence, chart],
                        sources=[glm["source"]])
    from articles.figure_check import check_page

    found = [(f.typed, f.place) for f in check_page(page) if f.language == "en"]
    assert found == [
        ("283.4", "Provider table (block 1) › columns 1 › difference column heading"),
        ("Baseten", "Provider table (block 1) › caption"),
        ("Z.ai", "Provider-by-provider list (block 2) › parts of the sentence 1 › words before"),
        ("164.3", "Provider-by-provider list (block 2) › parts of the sentence 1 › words after"),
        ("150.4", "Bar chart (block 3) › caption"),
    ]
