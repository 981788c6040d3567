"""The editor's review reads as text: figures as labelled chips (never the stored <embed …/>), every
translator whose text the draft holds named, and a date not followed by a stray full stop."""

import re

import pytest
from bs4 import BeautifulSoup

from editorial.roles import TRANSLATORS

from ..figures_support import glm_data, make_article, paragraph, ref_html
from ..workspace_support import logged_in, member, review_url, translate

pytestmark = pytest.mark.django_db


def test_the_review_shows_chips_all_contributors_and_a_clean_date(django_user_model, translator, editor):
    glm = glm_data()
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"])
    page = make_article(
        [paragraph(f"<p>Baseten leads at {speed} tokens/s.</p>")],
        body_es=[paragraph(f"<p>Baseten lidera con {speed} tokens/s.</p>")],
        sources=[glm["source"]],
    )
    key = f"body/{page.body_en.raw_data[0]['id']}"
    assert translate(translator, page, {key: "<p>Baseten va primero con {1} tokens/s.</p>"}).status_code == 302
    second = logged_in(member(django_user_model, "segunda", TRANSLATORS))
    assert translate(second, page, {"title": "Una API veloz"}, action="submit").status_code == 302

    html = editor.get(review_url(page)).text
    soup = BeautifulSoup(html, "html.parser")
    table = soup.select_one("table.workspace-review")
    assert "embed" not in str(table)
    row = table.select_one(f"tr[data-key='{key}']")
    english, diff = row.select_one(".review-english"), row.select_one(".review-diff")
    chips = english.select(".token-chip")
    assert len(chips) == 1 and "GLM-5.3" in chips[0].get_text() and "speed" in chips[0].get_text()
    assert "<p>" not in diff.get_text() and len(diff.select(".token-chip")) == 1
    assert diff.select_one("del").get_text() == "lidera" and "va primero" in diff.select_one("ins").get_text()

    submitted = " ".join(soup.select_one(".review-submitted").get_text().split())
    assert re.search(r"by segunda", submitted), submitted
    assert soup.select_one(".review-contributors").get_text(" ", strip=True) == "Text by traductora, segunda"
    assert ".." not in submitted
