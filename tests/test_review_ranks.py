"""The review of changed figures shows every rank that changed: each row of a ranked list that moved
(however far down, however far apart) with its old and new place, the old leader's fall as well as the
new leader, and the ranks that data references print inside a block's texts (a provider card's "ranks
2nd"), which the figure downloads carry too."""

import csv
import io
from decimal import Decimal

import pytest

from reviews.models import FigureChange
from reviews.page_figures import _ranking_change
from tests.figures_support import glm_data, make_article, publish_correction, ref_html, table

pytestmark = pytest.mark.django_db

HOSTS = [f"Host {n}" for n in range(1, 11)]


def ranking_items(old, new):
    return _ranking_change((1, "speed"), "Provider table", [(h, h) for h in old], [(h, h) for h in new])


def test_rows_six_to_ten_reversed_are_all_quoted_with_their_old_and_new_places():
    reordered = HOSTS[:5] + HOSTS[5:][::-1]  # 6↔10, 7↔9; the 8th stays

    [(_index, _place, _key, kind, figure, was, now)] = ranking_items(HOSTS, reordered)

    assert kind == "ranking" and figure == "order (4 rows moved)"
    assert was == "… 6. Host 6, 7. Host 7 … 9. Host 9, 10. Host 10"
    assert now == "… 6. Host 10, 7. Host 9 … 9. Host 7, 10. Host 6"
    assert "Host 1," not in was + now, "rows 1–5 did not move: quoting them hid the change"


def test_rows_that_swap_far_apart_are_both_quoted():
    hosts = [f"Host {n}" for n in range(1, 51)]
    swapped = list(hosts)
    swapped[1], swapped[39] = swapped[39], swapped[1]

    [(*_head, was, now)] = ranking_items(hosts, swapped)

    assert was == "… 2. Host 2 … 40. Host 40 …"
    assert now == "… 2. Host 40 … 40. Host 2 …"


def test_a_new_leader_also_shows_where_the_old_one_fell():
    new_order = ["Host 2", "Host 3", "Host 1"] + HOSTS[3:]

    leader, order = ranking_items(HOSTS, new_order)

    assert leader[3:] == ("pick", "leader", "Host 1", "Host 2")
    assert order[3:] == ("ranking", "order (3 rows moved)", "1. Host 1, 2. Host 2, 3. Host 3 …",
                         "1. Host 2, 2. Host 3, 3. Host 1 …")


@pytest.fixture
def glm():
    return glm_data()


def cards(data, text):
    return {
        "type": "provider_cards",
        "value": {
            "metric": "output_speed_median",
            "models": [{"model": data["model"].pk, "source": data["source"].pk}],
            "cards": [{"provider": data["together"].provider.pk, "summary": "", "strengths": text,
                       "limitations": "<p>No premium tier.</p>"}],
        },
    }


def test_the_issue_correction_lists_the_old_leaders_fall_and_a_cards_rank(client, glm):
    """Baseten (Fast)'s GLM-5.3 output speed corrected from 283.4 to 140: Together AI leads, Baseten (Fast)
    falls from 1st to 3rd, and the card that says Together AI ranks "2nd" now prints "1st"."""
    rank = ref_html(glm["model"], "output_speed_median", endpoint=glm["together"], compare="rank")
    page = make_article([table(glm), cards(glm, f"<p>Ranks {rank} on GLM-5.3 output speed.</p>")],
                        sources=[glm["source"], glm["pricing"]])
    before = client.get(page.url + "data/csv/").content.decode()

    correction = publish_correction(glm["snapshot"], {(glm["fast"].pk, "output_speed_median"): Decimal("140")})

    items = FigureChange.objects.filter(change_set__snapshot=correction, page=page)
    english = {(i.block_index, i.kind, i.figure, i.old_text, i.new_text) for i in items.filter(language="en")}
    assert (0, "pick", "leader", "Baseten (Fast)", "Together AI") in english
    assert (0, "ranking", "order (3 rows moved)", "1. Baseten (Fast), 2. Together AI, 3. Z.ai …",
            "1. Together AI, 2. Z.ai, 3. Baseten (Fast) …") in english
    assert (1, "value", "Together AI · GLM-5.3 · rank on Output speed", "2nd", "1st") in english
    spanish = {(i.block_index, i.old_text, i.new_text) for i in items.filter(language="es", kind="value")}
    assert (1, "2.º", "1.º") in spanish

    # The downloads carry the card's rank as the page prints it, before and after.
    def card_rank(text):
        rows = csv.DictReader(io.StringIO(text))
        return [(r["as printed"], r["value"]) for r in rows if r["figure"] == "Together AI · GLM-5.3 · rank on Output speed"]

    assert card_rank(before) == [("2nd", "2")]
    assert card_rank(client.get(page.url + "data/csv/").content.decode()) == [("1st", "1")]


def test_a_new_leader_points_the_editor_at_the_summary_that_names_the_old_one(glm):
    """The summary is the meta description and the listing's text: a ranking change that moves a
    provider it names asks the editor to re-read it first (the review asked for paragraph 5 and the
    cards, never the summary)."""
    page = make_article([table(glm), cards(glm, "<p>Wide catalogue.</p>")], sources=[glm["source"], glm["pricing"]],
                        summary={"en": "<p>Baseten's premium tier is quick on GLM-5.3.</p>",
                                 "es": "<p>El nivel prémium de Baseten es rápido en GLM-5.3.</p>"})

    correction = publish_correction(glm["snapshot"], {(glm["fast"].pk, "output_speed_median"): Decimal("140")})

    for lang in ("en", "es"):
        [leader] = FigureChange.objects.filter(change_set__snapshot=correction, page=page, language=lang,
                                               kind="pick", figure__in=["leader", "líder"])
        places = leader.mentions.splitlines()
        assert places[0] in ("Summary", "Resumen"), places
        assert any("Together AI" in place for place in places[1:])  # its card, as before
