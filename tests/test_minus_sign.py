"""Negative figures print a real minus sign (U+2212) for readers, in English and Spanish: "−5.3 pp", not
"-5.3 pp", whose hyphen reads as a dash or a range. What machines read (<data value>, the CSV's and
JSON's value columns) keeps the ASCII "-" that every parser accepts."""

import csv
import io
from decimal import Decimal

import pytest
from bs4 import BeautifulSoup

from benchmarks.metrics import get_metric
from benchmarks.models import LanguageModel, Source

MINUS = "\u2212"
SCORECARD = "/en/glm-5-3-flash-providers/"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_negative_figures_and_differences_print_a_minus_sign(lang):
    from benchmarks.formatting import format_decimal, format_difference

    assert format_difference(get_metric("ttfc_median"), Decimal("-13.842"), lang=lang) == f"{MINUS}13,842 ms"
    assert format_difference(get_metric("accuracy_index"), Decimal("-3.7"), lang=lang) == f"{MINUS}3.7 pp"
    assert format_decimal(Decimal("-1693.7"), 1, lang=lang) == f"{MINUS}1,693.7"
    # No sign where the rounded value is zero, and a plus for a lead.
    assert format_difference(get_metric("accuracy_index"), Decimal("-0.02"), lang=lang) == "0.0 pp"
    assert format_difference(get_metric("ttfc_median"), Decimal("0.05"), lang=lang) == "+50 ms"


def test_the_scorecard_prints_minus_signs_and_keeps_ascii_values_for_machines(client, demo_site):
    soup = BeautifulSoup(client.get(SCORECARD).content, "html.parser")
    row = next(tr for tr in soup.select("table.provider-table tbody tr") if "Novita AI" in tr.get_text())
    cell = next(data for data in row.find_all("data") if data.get_text().endswith("pp"))
    assert cell.get_text() == f"{MINUS}5.3 pp" and cell["value"] == "-5.3"
    assert "-5.3 pp" not in soup.get_text()

    rows = list(csv.DictReader(io.StringIO(client.get(SCORECARD + "data/csv/").content.decode())))
    novita = next(r for r in rows if r["as printed"] == f"{MINUS}5.3 pp")
    assert novita["value"] == "-5.3"  # a number to a spreadsheet, not a formula-escaped text
    figures = client.get(SCORECARD + "data/json/").json()["figures"]
    assert next(f for f in figures if f["text"] == f"{MINUS}5.3 pp")["value"] == -5.3


@pytest.fixture
def gap_page(demo_site):
    """GLM-5.3's providers with their speed gap to the fastest: every row but the leader's is negative."""
    from articles.models import ArticlePage

    table = {
        "model": LanguageModel.objects.get(slug="glm-5-3").pk,
        "source": Source.objects.get(title_en="GLM-5.3 providers").pk,
        "columns": [{"field": "output_speed_median", "difference_to_leader": True, "difference_label_en": ""}],
        "sort_metric": "output_speed_median", "name_style": "short", "show_api_model": False,
        "cite_sources": False, "caption": "",
    }
    page = ArticlePage(
        slug_en="glm-speed-gaps", slug_es="distancias-velocidad-glm", title_en="GLM-5.3 speed gaps",
        title_es="Distancias de velocidad de GLM-5.3",
        body_en=[{"type": "provider_table", "value": table}], body_es=[{"type": "provider_table", "value": table}],
    )
    demo_site.add_child(instance=page)
    page.save_revision().publish()
    return page


@pytest.mark.parametrize("url", ["/en/glm-speed-gaps/", "/es/distancias-velocidad-glm/"])
def test_speed_gaps_print_a_minus_sign_in_both_languages(client, gap_page, url):
    soup = BeautifulSoup(client.get(url).content, "html.parser")
    gaps = [data for data in soup.select("table.provider-table td data") if data["value"].startswith("-")]
    assert gaps, "no negative gap printed"
    for data in gaps:
        text = data.get_text()
        assert text.startswith(MINUS) and "-" not in text, text
        assert Decimal(text[1:].replace(",", "")) == -Decimal(data["value"]), (text, data["value"])
