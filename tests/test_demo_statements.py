"""The demo article's claims are checked statements (issue 24): all hold on the demo data, and the
correction the issue reports (Baseten (Fast)'s GLM-5.3 output speed 283.4 → 140) leaves no false
statement unmarked, in English and Spanish, with every one of them in the review."""

from decimal import Decimal

import pytest
from bs4 import BeautifulSoup

from articles.models import ArticlePage
from articles.statements.evaluate import evaluate
from articles.statements.markup import statements_in_html
from articles.statements.page import statements_in_blocks
from reviews.models import FigureChange
from tests.figures_support import publish_correction

pytestmark = pytest.mark.django_db

PAGES = {"en": "/en/fastest-llm-api/", "es": "/es/api-llm-mas-rapida/"}
# The five sentences the issue found false after the correction, as the page prints them.
FALSE_AFTER = {
    "en": [
        "Baseten's premium tier leads two of the current models",
        "Baseten's premium tier, which is sold as a separate, more expensive product, so weigh it against the "
        "standard routes on price as well as on speed",
        "Leads two of the three current models, both times through its premium Fast tier.",
        "tops the speed ranking on GLM-5.3 and on DeepSeek V4.1 Flash 1017",
        "A steady second: runner-up on output speed for every current model",
        "That speed costs extra: the Fast tier is priced above the standard one",
    ],
    "es": [
        "El nivel prémium de Baseten lidera dos de los modelos actuales",
        "el nivel prémium de Baseten, que se vende como un producto aparte y más caro, así que conviene compararlo "
        "con las rutas estándar también por precio y no solo por velocidad",
        "Lidera dos de los tres modelos actuales, en ambos casos con su nivel prémium Fast.",
        "encabeza la velocidad en GLM-5.3 y en DeepSeek V4.1 Flash 1017",
        "Un segundo puesto constante: segundo en velocidad de salida en todos los modelos actuales",
        "Esa velocidad se paga: el nivel Fast cuesta más que el estándar",
    ],
}


def demo_article():
    return ArticlePage.objects.get(slug_en="fastest-llm-api")


def every_statement(page, lang):
    found = [(claim, words) for claim, words in statements_in_html(getattr(page, f"summary_{lang}"))]
    found += [(s.claim, s.words) for s in statements_in_blocks(list(getattr(page, f"body_{lang}")))]
    return found


def correct_baseten_fast():
    from benchmarks.models import Measurement

    row = Measurement.objects.get(
        snapshot__status="published", snapshot__source__title_en="GLM-5.3 providers", metric="output_speed_median",
        endpoint__provider__slug="baseten", endpoint__tier="Fast",
    )
    assert row.value == Decimal("283.4")
    publish_correction(row.snapshot, {(row.endpoint_id, row.metric): Decimal("140")})


def false_statements(html):
    return [node.get_text() for node in BeautifulSoup(html, "html.parser").select(".statement--false")]


def test_every_demo_statement_holds_on_the_demo_data_in_both_languages(client, demo_site):
    scorecard = ArticlePage.objects.get(slug_en="glm-5-3-flash-providers")
    for page, at_least in ((demo_article(), 30), (scorecard, 1)):
        for lang in ("en", "es"):
            statements = every_statement(page, lang)
            assert len(statements) >= at_least
            broken = [words for claim, words in statements
                      if claim is None or not evaluate(claim, page.page_data).holds]
            assert broken == [], (page.slug, lang)
    html = client.get("/en/glm-5-3-flash-providers/").content.decode()
    assert "Ten hosts</span>, one model" in html
    assert 'data-dataref="model=' in html and "compare=count" in html and ">10</span>" in html


def test_both_languages_carry_the_same_conditions(demo_site):
    page = demo_article()
    english, spanish = (every_statement(page, lang) for lang in ("en", "es"))
    assert [claim for claim, _w in english] == [claim for claim, _w in spanish]


def test_the_reported_correction_leaves_no_false_statement_unmarked(client, demo_site):
    page = demo_article()
    before = {lang: client.get(url).content.decode() for lang, url in PAGES.items()}
    assert all(false_statements(html) == [] for html in before.values())

    correct_baseten_fast()

    page = demo_article()
    for lang, url in PAGES.items():
        html = client.get(url).content.decode()
        marked = false_statements(html)
        for sentence in FALSE_AFTER[lang]:
            assert sentence in marked, (lang, sentence, marked)
        # Nothing false is left unmarked: every statement the data no longer bears out is marked.
        really_false = [words for claim, words in every_statement(page, lang)
                        if not evaluate(claim, page.page_data).holds]
        assert sorted(marked) == sorted(really_false), lang
        description = BeautifulSoup(html, "html.parser").select_one('meta[name="description"]')["content"]
        assert FALSE_AFTER[lang][0] not in description
        assert FALSE_AFTER[lang][0] in before[lang]

    listed = set(FigureChange.objects.filter(page_id=page.pk, kind=FigureChange.Kind.STATEMENT)
                 .values_list("language", "figure"))
    for lang in ("en", "es"):
        for sentence in FALSE_AFTER[lang]:
            assert (lang, sentence) in listed, (lang, sentence)


def test_the_typed_figure_report_is_empty_on_the_demo_articles(demo_site):
    from articles.figure_check import check_page

    for page in ArticlePage.objects.all():
        findings = check_page(page)
        assert findings == [], [(f.language, f.place, f.typed) for f in findings]
