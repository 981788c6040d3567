"""The real demo article with every checked statement typed back as plain words (the wrappers
removed, the data references kept): the typed-figure check finds each of the issue's five sentences
in both languages, with evidence about the provider and the metric each speaks of, from figures the
page shows. Two sentences the demo states next to a reference or with "only"/"the one" are found
typed alone too."""

import html
import re

import pytest

from articles.figure_check import check_page
from articles.models import ArticlePage
from articles.prose_fields import body_prose, page_field_prose
from articles.statements.markup import statements_in_html
from articles.statements.page import statements_in_blocks
from tests.figures_support import make_article, paragraph, table
from tests.test_figure_check_demo import demo_models
from tests.test_figure_check_fields import note

pytestmark = pytest.mark.django_db

WRAPPER = re.compile(r"<a\b[^>]*\blinktype=([\"'])statement\1[^>]*>(.*?)</a>", re.IGNORECASE | re.DOTALL)
# The five sentences, by words each keeps whatever else the demo's wording becomes.
FIVE = {
    "en": [
        "leads two of the current models",  # 1. the summary
        "which is sold as a separate",  # 2. the old leader described next to the live leader reference
        "Leads two of the three current models",  # 3. Baseten's card
        "tops the speed ranking on GLM-5.3",  # 4. Baseten's card
        "runner-up on output speed for every current model",  # 5. Together AI's card
    ],
    "es": [
        "lidera dos de los modelos actuales",
        "que se vende como un producto aparte",
        "Lidera dos de los tres modelos actuales",
        "encabeza la velocidad en GLM-5.3",
        "segundo en velocidad de salida en todos los modelos actuales",
    ],
}
# Metrics only the first-party run of GLM-5.3-Flash measures: the article shows none of them.
UNSHOWN = ("Time to first token", "Tokens per second", "End-to-end", "Task success", "Failure rate")


def unwrap(value):
    """Stored text (or raw stream data) with each statement's words left as plain words."""
    if isinstance(value, str):
        return WRAPPER.sub(lambda match: match.group(2), value)
    if isinstance(value, list):
        return [unwrap(item) for item in value]
    if isinstance(value, dict):
        return {key: unwrap(item) for key, item in value.items()}
    return value


def demo_article():
    return ArticlePage.objects.get(slug_en="fastest-llm-api")


def statement_words(page, lang):
    words = [words for _claim, words in statements_in_html(getattr(page, f"summary_{lang}"))]
    words += [s.words for s in statements_in_blocks(list(getattr(page, f"body_{lang}")))]
    return [" ".join(html.unescape(w).split()) for w in words]


def typed_back(page):
    """The page, unsaved, with its statements typed back as plain text in both languages."""
    for lang in ("en", "es"):
        setattr(page, f"summary_{lang}", unwrap(getattr(page, f"summary_{lang}")))
        setattr(page, f"body_{lang}", unwrap(list(getattr(page, f"body_{lang}").raw_data)))
    return page


def field_of(page, lang, sentence):
    """The place of the text field that holds a sentence."""
    texts = [*page_field_prose(page, lang), *body_prose(list(getattr(page, f"body_{lang}")))]
    places = [text.place for text in texts if sentence in " ".join(text.text.split())]
    assert len(places) == 1, (lang, sentence, places)
    return places[0]


def finding_in(findings, lang, place, sentence):
    """A finding of that field whose flagged words sit inside the sentence (its context around them
    is the sentence's), or None."""
    for finding in findings:
        if finding.language != lang or finding.place != place or finding.typed not in sentence:
            continue
        at = finding.context.find(finding.typed)
        before = finding.context[max(at - 10, 0):at + len(finding.typed)]
        after = finding.context[at:at + len(finding.typed) + 10]
        if before in sentence or after in sentence:
            return finding
    return None


@pytest.fixture
def typed_back_demo(demo_site):
    page = demo_article()
    sentences = {lang: statement_words(page, lang) for lang in ("en", "es")}
    assert all(len(words) >= 30 for words in sentences.values())  # the demo's claims are statements
    page = typed_back(page)
    assert statement_words(page, "en") == [] and statement_words(page, "es") == []
    return page, sentences, check_page(page)


def test_each_of_the_five_sentences_typed_back_into_the_demo_is_found_in_both_languages(typed_back_demo):
    page, sentences, findings = typed_back_demo
    for lang, phrases in FIVE.items():
        for phrase in phrases:
            sentence = next(words for words in sentences[lang] if phrase in words)
            place = field_of(page, lang, sentence)
            assert finding_in(findings, lang, place, sentence), (lang, phrase, place, [
                (f.typed, f.context) for f in findings if f.language == lang and f.place == place])


def test_a_name_typed_next_to_a_live_reference_is_flagged_with_its_own_rank(typed_back_demo):
    """"one stands well ahead: [leader], Baseten's premium tier, …": the reference prints today's
    leader, the words name the old one; only the reference's own figure is checked."""
    page, sentences, findings = typed_back_demo
    for lang, phrase in (("en", FIVE["en"][1]), ("es", FIVE["es"][1])):
        sentence = next(words for words in sentences[lang] if phrase in words)
        place = field_of(page, lang, sentence)
        baseten = [f for f in findings if f.language == lang and f.place == place and f.typed == "Baseten"]
        assert len(baseten) == 1, (lang, [(f.typed, f.context) for f in findings if f.place == place])
        # Baseten's premium tier, in output speed (the reference's metric), on GLM-5.3 (its model).
        assert baseten[0].figures == ["ranking claim about Baseten", "Baseten (Fast) · GLM-5.3 · Output speed: rank 1 of 6"]


def test_the_evidence_of_a_typed_back_count_is_the_named_providers_in_the_sentences_metric(typed_back_demo):
    _page, _sentences, findings = typed_back_demo
    for lang, typed in (("en", "two of the current models"), ("es", "dos de los modelos")):
        count = next(f for f in findings if f.language == lang and f.place == "Summary" and f.typed == typed)
        # Not CoreWeave's models (named later in the sentence), not Baseten's first-chunk leads.
        assert count.figures == ["Baseten · leads Output speed on 2 models"], count.figures


def test_no_evidence_quotes_a_figure_the_page_does_not_show(typed_back_demo):
    _page, _sentences, findings = typed_back_demo
    quoted = [line for finding in findings for line in finding.figures]
    assert quoted and not [line for line in quoted if any(label in line for label in UNSHOWN)]


def test_the_two_sentences_the_check_missed_are_found_typed_alone(demo_site):
    models = demo_models()
    en = [
        *[table(data) for data in models],
        paragraph("<p>This is the one current model on which the benchmark measures CoreWeave.</p>"),
        note("<p>Only GLM-5.3 and GPT-OSS 120B have an Endpoint Accuracy Index in this set of models.</p>"),
        paragraph("<p>Novita AI is well behind the leaders on GLM-5.3-Flash.</p>"),
    ]
    es = [
        *[table(data) for data in models],
        paragraph("<p>Es el único modelo actual en el que el benchmark mide a CoreWeave.</p>"),
        note("<p>En este grupo de modelos solo GLM-5.3 y GPT-OSS 120B tienen Endpoint Accuracy Index.</p>"),
        paragraph("<p>Novita AI va muy por detrás de los líderes en GLM-5.3-Flash.</p>"),
    ]
    page = make_article(en, body_es=es, sources=[data["source"] for data in models], title="Typed alone")

    findings = check_page(page)

    for lang in ("en", "es"):
        found = {(f.typed, f.place): f.figures for f in findings if f.language == lang}
        assert list(found) == [
            ("CoreWeave", "Paragraph (block 5)"),
            ("GLM-5.3", "Note / callout (block 6) › text"),
            ("Novita AI", "Paragraph (block 7)"),
        ], found
        # Where the benchmark measures CoreWeave: the claim the sentence makes.
        assert found[("CoreWeave", "Paragraph (block 5)")] == [
            "ranking claim about CoreWeave", "CoreWeave · measured on GLM-5.3-Flash, GPT-OSS 120B"]
        # How many hosts each of the page's models has an accuracy index from, the two named and the rest.
        assert found[("GLM-5.3", "Note / callout (block 6) › text")] == [
            "claim about GLM-5.3, GPT-OSS 120B",
            "GLM-5.3 · Endpoint Accuracy Index: 6 hosts measured",
            "DeepSeek V4.1 Flash 1017 · Endpoint Accuracy Index: not measured",
            "GLM-5.3-Flash · Endpoint Accuracy Index: not measured",
            "GPT-OSS 120B · Endpoint Accuracy Index: 7 hosts measured",
        ]
        # The tables' metric, from the benchmark the page shows: not the first-party run's
        # time-to-first-token ranks of the same model, which the page prints nowhere.
        assert found[("Novita AI", "Paragraph (block 7)")] == [
            "ranking claim about Novita AI", "Novita AI · GLM-5.3-Flash · Output speed: rank 5 of 7"]
