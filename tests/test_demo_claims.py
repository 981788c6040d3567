"""The demo's sentences about the data are checked statements or data references, never plain text
(audit items 2, 3 and 12): each sentence the audit found typed is a statement (or was reworded so it
no longer depends on the data), in English and Spanish; the conditions of the sentences it found too
weak say as much as their words; after the issue's correction (Baseten (Fast)'s GLM-5.3 output speed
283.4 → 140) every sentence it made false is marked; and the Spanish pages cite the demo sources by
their Spanish titles."""

import html
from decimal import Decimal

import pytest
from bs4 import BeautifulSoup

from articles.models import ArticlePage
from articles.statements.markup import statements_in_html
from articles.statements.page import statements_in_blocks
from benchmarks.models import LanguageModel, Measurement, Provider, Source
from tests.figures_support import publish_correction

pytestmark = pytest.mark.django_db

PAGES = {
    "fastest-llm-api": {"en": "/en/fastest-llm-api/", "es": "/es/api-llm-mas-rapida/"},
    "glm-5-3-flash-providers": {"en": "/en/glm-5-3-flash-providers/", "es": "/es/proveedores-glm-5-3-flash/"},
}
# What the audit found typed as plain text (or checked by too weak a condition), as the pages printed
# it: none of it may be read outside a checked statement any more.
TYPED = {
    "fastest-llm-api": {
        "en": ["Which host is quickest depends on the model you call", "the widest gap between first and last",
               "hosts again", "The steadiest host here", "so weigh it against the standard routes",
               "a promotional price currently softens that", "which appears in these rankings",
               "One of only three hosts", "ranking in the lower half on each",
               "the quickest start of any current model",
               "The publisher of this page is one of the ranked hosts"],
        "es": ["El proveedor más rápido depende del modelo que llames",
               "la mayor distancia entre el primero y el último", "De nuevo", "El proveedor más regular",
               "así que conviene compararlo con las rutas estándar", "un precio promocional lo compensa",
               "que aparece en estas clasificaciones", "Uno de los tres únicos proveedores",
               "en la mitad baja de cada clasificación", "el arranque más rápido de todos los modelos actuales",
               "El editor de esta página es uno de los proveedores clasificados"],
    },
    "glm-5-3-flash-providers": {
        "en": ["No single host is best on every metric",
               "The host with the shortest tail latency is not the one with the most correct answers",
               "The leaders can differ", "600 identical requests each", "the same 600 small structured tasks"],
        "es": ["Ningún proveedor es el mejor en todas las métricas",
               "El proveedor con la menor latencia de cola no es el que más respuestas correctas da",
               "Los líderes pueden ser distintos", "600 peticiones idénticas a cada uno",
               "las mismas 600 tareas estructuradas pequeñas"],
    },
}
# The sentences that say those things now, each a checked statement (the words as stored).
CHECKED = {
    "fastest-llm-api": {
        "en": ["Which host is quickest depends on the model you call",
               "so weigh it against the standard routes on price as well as on speed",
               "A steady second: runner-up on output speed for every current model",
               "hosts again", "leading none of them",
               "The Fast tier has the shortest first chunk on DeepSeek V4.1 Flash 1017",
               "Measured on all four models, outside the top three on each.",
               "With Together AI and DeepInfra, one of the hosts with a benchmark row on every model",
               "it also has the lowest list price on that model",
               "The publisher of this page, Novita AI, is ranked on every model here"],
        "es": ["El proveedor más rápido depende del modelo que llames",
               "así que conviene compararlo con las rutas estándar también por precio",
               "Un segundo puesto constante: segundo en velocidad de salida en todos los modelos actuales",
               "De nuevo", "sin liderar ninguno de ellos",
               "El nivel Fast tiene el primer fragmento más corto en DeepSeek V4.1 Flash 1017",
               "Medido en los cuatro modelos, fuera de los tres primeros en cada uno.",
               "Con Together AI y DeepInfra, uno de los proveedores con datos del benchmark en todos",
               "también tiene el precio de lista más bajo en ese modelo",
               "El editor de esta página, Novita AI, está clasificado en todos los modelos"],
    },
    "glm-5-3-flash-providers": {
        "en": ["No single host is best on every metric", "No: Baseten has the shortest tail latency",
               "In this run the leaders differ", "600 identical requests each",
               "each answered the same 600 small structured tasks"],
        "es": ["Ningún proveedor es el mejor en todas las métricas", "No: Baseten tiene la menor latencia de cola",
               "En esta medición los líderes son distintos", "600 peticiones idénticas a cada uno",
               "respondieron cada uno las mismas 600 tareas estructuradas pequeñas"],
    },
}
# False once Baseten (Fast) runs GLM-5.3 at 140 tokens/s: Together AI leads it, and Fast is slower than
# Baseten's standard tier. Each must be marked, in both languages.
FALSE_AFTER = {
    "en": ["Baseten's premium tier, which is sold as a separate, more expensive product, so weigh it against the "
           "standard routes on price as well as on speed",
           "A steady second: runner-up on output speed for every current model",
           "leading none of them",
           "That speed costs extra: the Fast tier is priced above the standard one"],
    "es": ["el nivel prémium de Baseten, que se vende como un producto aparte y más caro, así que conviene compararlo "
           "con las rutas estándar también por precio y no solo por velocidad",
           "Un segundo puesto constante: segundo en velocidad de salida en todos los modelos actuales",
           "sin liderar ninguno de ellos",
           "Esa velocidad se paga: el nivel Fast cuesta más que el estándar"],
}
FIRST = {"en": "1st", "es": "1.º"}


def stored_statements(page, lang):
    """[(words, claim)] of the page's summary and body in one language, in page order."""
    found = [(words, claim) for claim, words in statements_in_html(getattr(page, f"summary_{lang}"))]
    return found + [(s.words, s.claim) for s in statements_in_blocks(list(getattr(page, f"body_{lang}")))]


def statement_with(page, lang, words):
    matches = [(text, claim) for text, claim in stored_statements(page, lang) if words in text]
    assert len(matches) == 1, (page.slug_en, lang, words, matches)
    return matches[0][1]


def unchecked_text(html_text):
    """What a reader sees outside every statement (true or marked) and its panels."""
    soup = BeautifulSoup(html_text, "html.parser")
    for node in soup.select(".statement, .statement-flag, .prov-panel, script, style, head"):
        node.decompose()
    return " ".join(soup.get_text(" ").split())


def assert_nothing_typed(client):
    for slug, urls in PAGES.items():
        for lang, url in urls.items():
            text = unchecked_text(client.get(url).content.decode())
            typed = [phrase for phrase in TYPED[slug][lang] if phrase in text]
            assert typed == [], (url, typed)


def test_the_audited_sentences_are_checked_statements_in_both_languages(client, demo_site):
    assert_nothing_typed(client)
    for slug in PAGES:
        page = ArticlePage.objects.get(slug_en=slug)
        for lang in ("en", "es"):
            for words in CHECKED[slug][lang]:
                assert statement_with(page, lang, words) is not None, (slug, lang, words)
        # the Spanish sentences carry the English conditions
        english, spanish = ([claim for _words, claim in stored_statements(page, lang)] for lang in ("en", "es"))
        assert english == spanish, slug
    # The disclosure field holds no statement, so it says nothing the data decides.
    fastest = ArticlePage.objects.get(slug_en="fastest-llm-api")
    assert "rankings" not in fastest.publisher_disclosure_en and "clasificaciones" not in fastest.publisher_disclosure_es


def _conditions(claim):
    return {(c.kind, c.host.provider_id if c.host else None, c.host.tier if c.host else None, c.models, c.metric,
             c.n, c.negated) for c in claim.conditions}


def test_conditions_are_as_strong_as_their_words(demo_site):
    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    model = {m.slug: m.pk for m in LanguageModel.objects.all()}
    host = {p.slug: p.pk for p in Provider.objects.all()}
    every = ["glm-5-3", "deepseek-v4-1-flash-1017", "glm-5-3-flash", "gpt-oss-120b"]
    speed = "output_speed_median"
    for lang, words in (("en", "outside the top three on each"), ("es", "fuera de los tres primeros en cada uno")):
        # measured on each model, and at least three hosts ahead on each (GPT-OSS 120B included)
        expected = {("measured", host["novita-ai"], "", (model[m],), speed, None, False) for m in every}
        expected |= {("rank", host["novita-ai"], "", (model[m],), speed, 3, True) for m in every}
        assert _conditions(statement_with(page, lang, words)) == expected
    for lang, words in (("en", "one of the hosts with a benchmark row on every model"),
                        ("es", "uno de los proveedores con datos del benchmark en todos")):
        claim = statement_with(page, lang, words)
        assert "only" not in words and _conditions(claim) == {
            ("measured", host[h], "", (model[m],), speed, None, False)
            for h in ("novita-ai", "together-ai", "deepinfra") for m in every}
    for lang, words in (("en", "shortest first chunk on DeepSeek V4.1 Flash 1017"),
                        ("es", "primer fragmento más corto en DeepSeek V4.1 Flash 1017")):
        # the sentence names the one model its condition checks
        assert _conditions(statement_with(page, lang, words)) == {
            ("leads", host["baseten"], "Fast", (model["deepseek-v4-1-flash-1017"],), "ttfc_median", None, False)}


def correct_baseten_fast():
    row = Measurement.objects.get(
        snapshot__status="published", snapshot__source__title_en="GLM-5.3 providers", metric="output_speed_median",
        endpoint__provider__slug="baseten", endpoint__tier="Fast",
    )
    assert row.value == Decimal("283.4")
    publish_correction(row.snapshot, {(row.endpoint_id, row.metric): Decimal("140")})


def test_after_the_correction_every_sentence_it_made_false_is_marked(client, demo_site):
    urls = PAGES["fastest-llm-api"]
    for url in urls.values():
        assert BeautifulSoup(client.get(url).content, "html.parser").select(".statement--false") == []

    correct_baseten_fast()

    assert_nothing_typed(client)
    for lang, url in urls.items():
        soup = BeautifulSoup(client.get(url).content.decode(), "html.parser")
        marked = [node.get_text() for node in soup.select(".statement--false")]
        for sentence in FALSE_AFTER[lang]:
            assert sentence in marked, (lang, sentence, marked)
        # Together AI's limitations print its new rank, 1st on GLM-5.3, beside the marked claim.
        card = next(c for c in soup.select("li.provider-card") if c.h3.get_text(strip=True) == "Together AI")
        limitations = card.select("div.rich-text")[1]
        assert [n.get_text() for n in limitations.select(".statement--false")] == [FALSE_AFTER[lang][2]]
        assert FIRST[lang] in limitations.get_text()
        # Still true: no host leads every model, so it still leads the description.
        description = soup.select_one('meta[name="description"]')["content"]
        assert description.startswith(TYPED["fastest-llm-api"][lang][0])


def test_spanish_pages_cite_sources_by_their_spanish_titles(client, demo_site):
    sources = list(Source.objects.filter(is_demo=True))
    translated = [s for s in sources if s.title_es != s.title_en]
    for slug, urls in PAGES.items():
        text = html.unescape(client.get(urls["es"]).content.decode())
        english = [f"{s.publisher} · {s.title_en}" for s in translated if f"{s.publisher} · {s.title_en}" in text]
        english += [s.title_en for s in translated if " " in s.title_en and s.title_en in text]
        assert english == [], (slug, english)
    # every demo source has its Spanish title (none falls back to English)
    assert sources and [s for s in sources if not s.title_es] == []
    spanish = html.unescape(client.get(PAGES["fastest-llm-api"]["es"]).content.decode())
    assert "Artificial Analysis · proveedores de GLM-5.3" in spanish and "Baseten · precios" in spanish
    scorecard = html.unescape(client.get(PAGES["glm-5-3-flash-providers"]["es"]).content.decode())
    assert "openbenchmarks-labs · medición de proveedores de GLM-5.3-Flash" in scorecard
