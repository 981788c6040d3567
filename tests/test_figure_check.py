"""The typed-figure check: numbers pasted into prose that equal a figure the page's data holds."""

import pytest
from django.test.utils import override_settings

from articles.figure_check import check_page
from tests.figures_support import glm_data, make_article, paragraph, ref_html, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def glm():
    return glm_data()


def heading(text):
    return {"type": "heading", "value": {"text": text, "level": "h2", "anchor": ""}}


def found(findings, lang):
    return [(f.typed, f.place) for f in findings if f.language == lang]


def test_finds_pasted_figures_in_english_and_spanish_prose(glm):
    page = make_article(
        [
            heading("Z.ai reaches 98.74% accuracy"),
            table(glm),
            paragraph("<p>Baseten's Fast tier leads at 283.4 tokens/s with a 0.90 s first chunk.</p>"),
        ],
        body_es=[
            heading("Precisión de Z.ai"),
            table(glm),
            paragraph(
                "<p>El nivel Fast de Baseten lidera con 283.4 tokens/s y cuesta <b>$2.10</b> por millón.</p>"
            ),
        ],
        sources=[glm["source"], glm["pricing"]],
    )

    findings = check_page(page)

    assert found(findings, "en") == [
        ("98.74%", "Heading (block 1) › text"),
        ("283.4", "Paragraph (block 3)"),
        ("0.90", "Paragraph (block 3)"),
        ("Baseten", "Paragraph (block 3)"),  # "Baseten's Fast tier leads": a leader claim
    ]
    assert found(findings, "es") == [
        ("283.4", "Paragraph (block 3)"), ("$2.10", "Paragraph (block 3)"), ("Baseten", "Paragraph (block 3)"),
    ]
    speed = next(f for f in findings if f.typed == "283.4" and f.language == "en")
    assert speed.figures == ["Baseten (Fast) · GLM-5.3 · Output speed"]
    assert "insert it as a reference?" in speed.message()
    price = next(f for f in findings if f.typed == "$2.10")
    assert price.figures == ["Baseten (Fast) · GLM-5.3 · input price"]


def test_references_versions_counts_and_other_numbers_are_not_flagged(glm):
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"])
    page = make_article(
        [
            table(glm),
            paragraph(
                # (A count of hosts the data does not give is flagged: test_figure_check_any_count.py.)
                f"<p>GLM-5.3 on its fastest host runs at {speed} tokens/s on a 10,000-token prompt; "
                "DeepSeek V4.1 is not measured, and 283.5 is nobody's figure.</p>"
            ),
        ],
        sources=[glm["source"]],
    )
    assert check_page(page) == []


def test_a_page_without_data_has_nothing_to_compare(glm):
    page = make_article([paragraph("<p>283.4 tokens/s</p>")])
    assert check_page(page) == []


def test_prose_references_make_their_model_count(glm):
    """A page that shows a model only through a reference still checks figures of that model."""
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"])
    page = make_article([paragraph(f"<p>{speed} tokens/s, against 150.4 on Z.ai.</p>")])
    assert [(f.language, f.typed) for f in check_page(page)] == [("en", "150.4"), ("es", "150.4")]


@override_settings(NUMBER_FORMATS={"es": {"thousands": ".", "decimal": ","}})
def test_each_language_is_read_with_its_own_separators(glm):
    page = make_article(
        [table(glm), paragraph("<p>It leads at 283.4 tokens/s.</p>")],
        body_es=[
            table(glm),
            paragraph("<p>Lidera con 283,4 tokens/s; 283.4 no es una cifra en español.</p>"),
        ],
        sources=[glm["source"]],
    )
    assert [(f.language, f.typed) for f in check_page(page)] == [("en", "283.4"), ("es", "283,4")]


def test_editor_warns_without_blocking_and_the_report_lists_every_page(editor_client, glm):
    typed = make_article(
        [table(glm), paragraph("<p>Leads at 283.4 tokens/s.</p>")],
        body_es=[table(glm), paragraph("<p>Lidera con 164.3 tokens/s.</p>")],
        sources=[glm["source"]],
        title="Typed figures",
    )
    clean = make_article(
        [table(glm), paragraph("<p>No figure typed.</p>")], sources=[glm["source"]], title="Clean"
    )

    response = editor_client.get(f"/admin/pages/{typed.pk}/edit/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "“283.4” in Paragraph (block 2) (English) looks like a figure" in text
    assert (
        "“164.3” in Paragraph (block 2) (Spanish) looks like a figure (Together AI · GLM-5.3 · Output speed)"
        in text
    )
    assert "looks like a figure" not in editor_client.get(f"/admin/pages/{clean.pk}/edit/").content.decode()

    report = editor_client.get("/admin/reviews/typed-figures/").content.decode()
    assert "Typed figures" in report and f'data-page="{typed.pk}"' in report
    assert f'data-page="{clean.pk}"' not in report
    assert "<strong>283.4</strong>" in report and "<strong>164.3</strong>" in report


def test_small_counts_and_leader_claims_are_flagged_and_references_are_not(glm):
    count = ref_html(glm["model"], "output_speed_median", compare="count")
    leader = ref_html(glm["model"], "output_speed_median", compare="leader")
    page = make_article(
        [
            table(glm),
            paragraph("<p>Four hosts are measured, and Z.ai tops the table.</p>"),
            paragraph(f"<p>{count} hosts are measured, and {leader} tops the table.</p>"),
        ],
        body_es=[table(glm), paragraph("<p>Se miden cuatro proveedores y Z.ai encabeza la tabla.</p>")],
        sources=[glm["source"]],
    )
    findings = check_page(page)
    assert found(findings, "en") == [("Four hosts", "Paragraph (block 2)"), ("Z.ai", "Paragraph (block 2)")]
    assert found(findings, "es") == [("cuatro proveedores", "Paragraph (block 2)"), ("Z.ai", "Paragraph (block 2)")]
    count_finding, claim = [f for f in findings if f.language == "en"]
    assert count_finding.figures == ["GLM-5.3 · hosts measured"]
    # The evidence is Z.ai's own rank, not the leaders of the page's tables, in the metric "the table"
    # is sorted by (the sentence names none): not its accuracy or first-chunk ranks.
    assert claim.figures == ["ranking claim about Z.ai", "Z.ai · GLM-5.3 · Output speed: rank 3 of 4"]
