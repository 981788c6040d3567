"""A statement left out (from a description, JSON-LD, a listing, or the page under the "hide" policy)
takes its whole sentence with it: after the issue's correction of the real demo (Baseten (Fast)'s
GLM-5.3 output speed 283.4 → 140) nothing reads ". , CoreWeave leads…", "measured, : Together AI, ,"
or "here: .", in English or Spanish. The FAQ's JSON-LD is built from the same checked text, with
its data references printed as the page prints them."""

import json
import re

import pytest
from bs4 import BeautifulSoup

from articles.models import ArticlePage
from tests.figures_support import glm_data, make_article, ref_html, table
from tests.test_demo_statements import PAGES, correct_baseten_fast
from tests.test_figure_check_fields import faq
from tests.test_statements import correct_fast, fetch, leads, statement

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("without_page_cache")]

# What a sentence cut in the middle leaves: a space before punctuation, punctuation doubled or
# opening a text, a colon with nothing after it, two spaces.
ORPHAN = re.compile(r"\s[,.;:]|[,;:]\s*[,.;:]|^\s*[,.;:]|:\s*$|\s{2,}")
# The words of statements the correction makes false (the sentences 1, 2 and 5).
FALSE_WORDS = {
    "en": ["Baseten's premium tier leads two", "stands well ahead", "runner-up on output speed"],
    "es": ["El nivel prémium de Baseten lidera dos", "uno va claramente por delante", "segundo en velocidad de salida"],
}
# The texts of an article's body and head a sentence can be left out of.
TEXTS = "p.summary, .rich-text, .card-summary, .chart-note, caption"


def descriptions(html):
    soup = BeautifulSoup(html, "html.parser")
    dataset = json.loads(soup.select_one('script[type="application/ld+json"]').string)
    return [
        soup.select_one('meta[name="description"]')["content"],
        soup.select_one('meta[property="og:description"]')["content"],
        soup.select_one('meta[name="twitter:description"]')["content"],
        dataset["description"],
    ]


def texts(html):
    """The visible words of each text that holds prose, without the ⓘ trails' hidden panels."""
    soup = BeautifulSoup(html, "html.parser")
    for hidden in soup.select(".prov-panel, button, svg, sup, .footnote-ref"):
        hidden.decompose()
    # A template's line breaks are not the text's: only spaces the removal left count.
    return [re.sub(r"\s*\n\s*", " ", node.get_text()).strip() for node in soup.select(TEXTS)]


def test_descriptions_and_the_listing_leave_out_the_whole_sentence_of_a_false_statement(client, demo_site):
    before = {lang: descriptions(client.get(url).content.decode())[0] for lang, url in PAGES.items()}
    correct_baseten_fast()
    for lang, url in PAGES.items():
        after = descriptions(client.get(url).content.decode())
        # Meta, Open Graph, Twitter and JSON-LD: one text, the summary's first sentence alone.
        assert len(set(after)) == 1, after
        description = after[0]
        assert description and before[lang].startswith(description) and description.endswith("."), description
        assert not ORPHAN.search(description), description
        assert FALSE_WORDS[lang][0] not in description and FALSE_WORDS[lang][0] in before[lang]
        listing = BeautifulSoup(client.get(f"/{lang}/").content, "html.parser").get_text(" ")
        assert description in " ".join(listing.split()) and ". , " not in listing


def test_the_hide_policy_removes_each_false_sentence_whole_in_both_languages(client, demo_site):
    ArticlePage.objects.filter(slug_en="fastest-llm-api").update(statement_policy="hide")
    shown = {lang: client.get(url).content.decode() for lang, url in PAGES.items()}
    for lang, words in FALSE_WORDS.items():
        assert all(phrase in shown[lang] for phrase in words)

    correct_baseten_fast()

    for lang, url in PAGES.items():
        html = client.get(url).content.decode()
        assert "statement--false" not in html and "statement-flag" not in html
        for phrase in FALSE_WORDS[lang]:
            assert phrase not in html, (lang, phrase)
        left = [text for text in texts(html) if ORPHAN.search(text)]
        assert left == [], (lang, left)
        # The sentences around them stay, and so do the statements that still hold.
        assert ("Which host is quickest" if lang == "en" else "El proveedor más rápido depende") in html
        assert ("Fastest GLM-5.3-Flash host" if lang == "en" else "El proveedor más rápido de GLM-5.3-Flash") in html


def faq_article(glm):
    """An FAQ whose first answer holds a statement and a data reference, the second only a statement."""
    claim = leads(glm)
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"], source=glm["source"])

    def body(lead, streams, quickest):
        return [table(glm), faq("Which host is fastest?", f"<p>{statement(claim, lead)}. {streams % speed}</p>"),
                {"type": "faq", "value": {"heading": "", "items": [
                    {"question": "Is Fast the quickest tier?", "answer": f"<p>{statement(claim, quickest)}</p>"}]}}]

    en = body("Baseten’s premium tier leads GLM-5.3", "It streams %s tokens/s.", "Yes, it is the quickest tier.")
    es = body("El nivel premium de Baseten lidera GLM-5.3", "Genera %s tokens/s.", "Sí, es el nivel más rápido.")
    return make_article(en, body_es=es, sources=[glm["source"], glm["pricing"]])


def faq_answers(html):
    soup = BeautifulSoup(html, "html.parser")
    found = []
    for script in soup.select('script[type="application/ld+json"]'):
        data = json.loads(script.string)
        if data.get("@type") == "FAQPage":
            found += [(item["name"], item["acceptedAnswer"]["text"]) for item in data["mainEntity"]]
    return found


def test_faq_json_ld_is_the_checked_text_with_references_printed(client):
    glm = glm_data()
    page = faq_article(glm)
    assert faq_answers(fetch(client, page, "en")) == [
        ("Which host is fastest?", "Baseten’s premium tier leads GLM-5.3. It streams 283.4 tokens/s."),
        ("Is Fast the quickest tier?", "Yes, it is the quickest tier."),
    ]
    correct_fast(glm)
    # The false sentence is left out (the page marks it; JSON-LD cannot), the figure is today's, and
    # a question left with no answer is left out of the FAQPage.
    assert faq_answers(fetch(client, page, "en")) == [("Which host is fastest?", "It streams 140.0 tokens/s.")]
    assert faq_answers(fetch(client, page, "es")) == [("Which host is fastest?", "Genera 140.0 tokens/s.")]
    assert "statement--false" in fetch(client, page, "en")


def test_a_stale_reference_in_checked_text_prints_its_value_mark_and_date(client, settings):
    from articles.statements.markup import checked_plain_text

    glm = glm_data()
    settings.FRESHNESS_MAX_AGE_HOURS = {"output_speed_median": 0}  # every speed figure is stale now
    page = faq_article(glm)
    text = checked_plain_text(f"<p>It streams {ref_html(glm['model'], 'output_speed_median', endpoint=glm['fast'])} "
                              "tokens/s.</p>", page.page_data)
    assert re.fullmatch(r"It streams 283\.4 \(stale · \d{1,2} \w+\) tokens/s\.", text), text
    answers = faq_answers(fetch(client, page, "en"))
    assert re.fullmatch(r".* It streams 283\.4 \(stale · \d{1,2} \w+\) tokens/s\.", answers[0][1]), answers
