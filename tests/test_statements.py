"""Checked statements (issue 24): a sentence about the data carries a condition; a correction that
makes it false marks it (or hides it, or holds the page) in both languages, and the review of
changed figures lists it first with the figures that broke it."""

import json
import re
from decimal import Decimal

import pytest
from bs4 import BeautifulSoup

from articles.models import ArticlePage, StatementHold
from articles.statements.conditions import Claim, Condition, Host, InvalidCondition
from articles.statements.evaluate import evaluate
from reviews.models import FigureChange
from tests.figures_support import glm_data, make_article, paragraph, publish_correction, table

pytestmark = pytest.mark.django_db

CORRECTED = Decimal("140")


@pytest.fixture
def glm():
    return glm_data()


def host(endpoint):
    return Host(endpoint.provider_id, endpoint.tier)


def leads(glm, endpoint_key="fast"):
    return Claim((Condition(kind="leads", metric="output_speed_median", models=(glm["model"].pk,),
                            host=host(glm[endpoint_key])),))


def statement(claim, words):
    cond = claim.serialize().replace("&", "&amp;").replace('"', "&quot;")
    return f'<a linktype="statement" cond="{cond}">{words}</a>'


def article(glm, policy="mark"):
    claim = leads(glm)
    en = paragraph(f"<p>{statement(claim, 'Baseten’s premium tier leads GLM-5.3')}, ahead of every other host.</p>")
    es = paragraph(f"<p>{statement(claim, 'El nivel premium de Baseten lidera GLM-5.3')}, por delante de todos.</p>")
    page = make_article([table(glm), en], body_es=[table(glm), es], sources=[glm["source"], glm["pricing"]])
    if policy != "mark":
        ArticlePage.objects.filter(pk=page.pk).update(statement_policy=policy)
    return ArticlePage.objects.get(pk=page.pk)


def correct_fast(glm, value=CORRECTED):
    return publish_correction(glm["snapshot"], {(glm["fast"].pk, "output_speed_median"): value})


def fetch(client, page, lang):
    from django.utils import translation

    with translation.override(lang):
        url = page.specific.get_url()
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_conditions_round_trip_and_reject_what_cannot_be_checked(glm):
    claim = leads(glm)
    assert Claim.parse(claim.serialize()) == claim
    with pytest.raises(InvalidCondition):
        Claim.parse(json.dumps([{"k": "leads", "metric": "output_speed_median", "models": [glm["model"].pk]}]))
    with pytest.raises(InvalidCondition):
        Claim.parse(json.dumps([{"k": "rank", "metric": "nonsense", "models": [1], "host": "1", "n": 1}]))
    with pytest.raises(InvalidCondition):
        Claim.parse("not json")


def test_each_kind_of_condition_is_judged_on_the_page_figures(glm):
    model = (glm["model"].pk,)

    def holds(**kwargs):
        kwargs.setdefault("metric", "output_speed_median")
        return evaluate(Claim((Condition(models=model, **kwargs),))).holds

    fast, together, novita = host(glm["fast"]), host(glm["together"]), host(glm["novita"])
    assert holds(kind="leads", host=fast) and not holds(kind="leads", host=together)
    assert holds(kind="rank", host=together, n=2) and not holds(kind="rank", host=novita, n=3)
    assert holds(kind="compare", host=fast, other=together, relation="faster", factor=Decimal("1.5"))
    assert not holds(kind="compare", host=fast, other=together, relation="faster", factor=Decimal("2"))
    assert holds(kind="compare", host=novita, other=together, relation="slower")
    assert holds(kind="count", relation="eq", n=4) and not holds(kind="count", relation="ge", n=5)
    assert holds(kind="value", host=fast, relation="above", threshold=Decimal("280"))
    assert not holds(kind="value", host=fast, relation="below", threshold=Decimal("280"))
    assert holds(kind="measured", host=novita) and not holds(kind="measured", host=novita, negated=True)
    assert holds(kind="compare", metric="price_output", host=host(glm["zai"]), other=fast, relation="cheaper")
    both = Claim((Condition(kind="leads", metric="output_speed_median", models=model, host=fast),
                  Condition(kind="count", metric="output_speed_median", models=model, relation="eq", n=3)))
    assert not evaluate(both).holds


def test_a_true_statement_prints_its_words_as_they_are(client, glm):
    page = article(glm)
    html = fetch(client, page, "en")
    assert "Baseten’s premium tier leads GLM-5.3</span>" in html
    assert "no longer matches the data" not in html
    assert 'linktype="statement"' not in html


def test_a_correction_marks_the_false_statement_in_both_languages_and_the_review_lists_it_first(client, glm):
    page = article(glm)
    correct_fast(glm)

    en, es = fetch(client, page, "en"), fetch(client, page, "es")
    assert re.search(r'class="statement statement--false"[^>]*>Baseten’s premium tier leads GLM-5.3</span>', en)
    assert "no longer matches the data since" in en
    # The trail names the figures that broke it: the new leader and the corrected value.
    assert "Together AI · GLM-5.3 · Output speed" in en and "140.0" in en
    assert re.search(r'class="statement statement--false"[^>]*>El nivel premium de Baseten lidera GLM-5.3</span>', es)
    assert "ya no coincide con los datos desde" in es

    items = list(FigureChange.objects.filter(page_id=page.pk).order_by("language"))
    statements = [item for item in items if item.kind == FigureChange.Kind.STATEMENT]
    assert {item.language for item in statements} == {"en", "es"}
    assert statements[0].figure == "Baseten’s premium tier leads GLM-5.3"
    assert "Together AI" in statements[0].new_text


def test_the_review_page_lists_false_statements_before_changed_figures(client, glm, django_user_model):
    page = article(glm)
    correct_fast(glm)
    admin = django_user_model.objects.create_superuser("boss", "boss@example.com", "pw")
    client.force_login(admin)
    html = client.get("/admin/reviews/changes/").content.decode()
    rows = re.findall(r'data-kind="(\w+)" data-language="en"', html)
    assert rows[0] == "statement" and "value" in rows[1:]
    assert "Edit the sentence" in html and f"/admin/pages/{page.pk}/edit/" in html


def test_hide_policy_removes_the_false_sentence_until_an_editor_acts(client, glm):
    page = article(glm, policy="hide")
    assert "leads GLM-5.3" in fetch(client, page, "en")
    correct_fast(glm)
    en, es = fetch(client, page, "en"), fetch(client, page, "es")
    # The statement covers part of its sentence: the whole sentence goes, nothing dangles after it.
    assert "leads GLM-5.3" not in en and "ahead of every other host" not in en
    assert "lidera GLM-5.3" not in es and "por delante de todos" not in es


def test_hold_policy_shows_the_data_of_the_last_moment_all_statements_held(client, glm):
    page = article(glm, policy="hold")
    correct_fast(glm)

    hold = StatementHold.objects.get(page_id=page.pk)
    en = fetch(client, page, "en")
    assert "newer data is under editorial review" in en
    assert "283.4" in en and "140.0" not in en  # the table still prints the figures as of then
    assert "statement--false" not in en
    assert "los datos más recientes están en revisión editorial" in fetch(client, page, "es")

    # Publishing is the editor's act that releases the hold: current data, the statement then marked.
    page.save_revision().publish()
    assert not StatementHold.objects.filter(pk=hold.pk).exists()
    en = fetch(client, page, "en")
    assert "140.0" in en and "statement--false" in en and "editorial review" not in en


def test_a_statement_that_becomes_true_again_loses_its_mark(client, glm):
    page = article(glm)
    draft = correct_fast(glm)
    assert "statement--false" in fetch(client, page, "en")
    draft.refresh_from_db()
    publish_correction(draft, {(glm["fast"].pk, "output_speed_median"): Decimal("290")})
    en = fetch(client, page, "en")
    assert "statement--false" not in en and "leads GLM-5.3</span>" in en


def test_the_editor_round_trips_a_statement_through_draftail_and_the_translator_keeps_its_conditions(glm):
    from wagtail.admin.rich_text.converters.contentstate import ContentstateConverter

    from editorial.richtext_tokens import restore, tokenize
    from editorial.token_chips import labels

    stored = f"<p>{statement(leads(glm), 'Baseten leads GLM-5.3')} today.</p>"
    converter = ContentstateConverter(features=["bold", "italic", "link", "dataref", "statement"])
    contentstate = converter.from_database_format(stored)
    entity = next(iter(json.loads(contentstate)["entityMap"].values()))
    assert entity["type"] == "STATEMENT" and entity["mutability"] == "MUTABLE"
    assert entity["data"]["label"].startswith("Baseten (Fast) leads Output speed")
    assert Claim.parse(converter.to_database_format(contentstate).split('cond="')[1].split('"')[0]
                       .replace("&quot;", '"')) == leads(glm)

    text, elements = tokenize(stored)
    assert '<a id="a1">' in text and "cond" not in text
    assert labels(elements)["a1"].startswith("checked statement: Baseten (Fast) leads")
    spanish = restore(text.replace("Baseten leads GLM-5.3", "Baseten lidera GLM-5.3").replace("today", "hoy"), elements)
    assert spanish.count('linktype="statement"') == 1 and "Baseten lidera GLM-5.3</a>" in spanish
    from articles.statements.markup import statements_in_html

    assert statements_in_html(spanish)[0][0] == leads(glm)


def test_a_false_summary_statement_is_marked_on_the_page_and_left_out_of_every_description(client, glm):
    page = article(glm)
    claim = statement(leads(glm), "Baseten’s premium tier leads GLM-5.3.")
    ArticlePage.objects.filter(pk=page.pk).update(
        summary_en=f"<p>Which host is quickest depends on the model. {claim}</p>", search_description_en=""
    )
    page = ArticlePage.objects.get(pk=page.pk)
    soup = BeautifulSoup(fetch(client, page, "en"), "html.parser")
    assert soup.select_one('meta[name="description"]')["content"] == (
        "Which host is quickest depends on the model. Baseten’s premium tier leads GLM-5.3.")

    correct_fast(glm)
    soup = BeautifulSoup(fetch(client, page, "en"), "html.parser")
    assert soup.select_one("p.summary .statement--false").get_text() == "Baseten’s premium tier leads GLM-5.3."
    descriptions = [
        soup.select_one('meta[name="description"]')["content"],
        soup.select_one('meta[property="og:description"]')["content"],
        soup.select_one('meta[name="twitter:description"]')["content"],
        json.loads(soup.select_one('script[type="application/ld+json"]').string)["description"],
    ]
    assert descriptions == ["Which host is quickest depends on the model."] * 4
    home = BeautifulSoup(client.get("/en/").content, "html.parser").get_text()
    assert "Which host is quickest depends on the model." in home and "leads GLM-5.3" not in home


def test_a_card_summary_statement_is_checked_like_the_cards_other_texts(client, glm):
    claim = statement(leads(glm), "Leads GLM-5.3 through its premium Fast tier.")
    card = {"provider": glm["fast"].provider.pk, "summary": f"<p>{claim}</p>", "strengths": "<p>Quick.</p>",
            "limitations": "<p>Pricey.</p>"}
    cards = {"type": "provider_cards", "value": {
        "metric": "output_speed_median", "models": [{"model": glm["model"].pk, "source": glm["source"].pk}],
        "cards": [card]}}
    page = make_article([cards], sources=[glm["source"], glm["pricing"]])
    html = fetch(client, page, "en")
    assert 'class="statement" data-statement' in html and "Leads GLM-5.3 through its premium Fast tier.</span>" in html
    correct_fast(glm)
    soup = BeautifulSoup(fetch(client, page, "en"), "html.parser")
    assert soup.select_one(".card-summary .statement--false").get_text() == "Leads GLM-5.3 through its premium Fast tier."
    assert not re.search(r"<p[\s>]", str(soup.select_one("p.card-summary"))[2:])  # no paragraph in the paragraph
    assert "no longer matches the data since" in soup.select_one(".card-summary").get_text()


def test_the_public_change_log_and_feed_list_the_statements_that_were_marked(client, glm):
    import feedparser

    page = article(glm)
    correct_fast(glm)
    for lang, marked in (("en", "Statement marked: “Baseten’s premium tier leads GLM-5.3”"),
                         ("es", "Afirmación marcada: «El nivel premium de Baseten lidera GLM-5.3»")):
        base = fetch(client, page, lang)
        soup = BeautifulSoup(base, "html.parser")
        log_url = soup.select_one("a.change-log-link")["href"]
        log = BeautifulSoup(client.get(log_url).content, "html.parser")
        rows = [row.get_text(" ", strip=True) for row in log.select("tr.change-log-statement")]
        assert len(rows) == 1 and marked in rows[0], rows
        assert "Together AI" in rows[0]  # the evidence: who leads now
        feed = feedparser.parse(client.get(log_url + "feed/").content)
        assert not feed.bozo and marked in feed.entries[0].summary
