"""An editor may show at most N rows of a provider table or a leaderboard: the page prints those rows,
says rows were cut and links to the article's data page; the figures the page declares (the data
page, the review of changed figures) are only the rows it shows."""

import pytest
from bs4 import BeautifulSoup

from articles.figures import page_figures
from tests.figures_support import glm_data, make_article, table

pytestmark = pytest.mark.django_db

# GLM-5.3 by output speed: Baseten (Fast) 283.4, Together AI 164.3, Z.ai 150.4, Novita AI 105.5.
SHOWN, CUT = {"Baseten (Fast)", "Together AI"}, {"Z.ai", "Novita AI"}


def leaderboard(data, limit):
    return {
        "type": "leaderboard",
        "value": {
            "metric": "output_speed_median",
            "source": data["source"].pk,
            "models": [{"model": data["model"].pk, "source": None}],
            "window_hours": None,
            "limit": limit,
            "name_style": "short",
            "value_heading_en": "",
            "caption_en": "",
        },
    }


def row_names(html, table_class):
    found = BeautifulSoup(html, "html.parser").find("table", class_=table_class)
    return [row.find("th").get_text(" ", strip=True) for row in found.tbody.find_all("tr")]


def data_page_rows(client, page):
    html = client.get(page.url + "data/").content.decode()
    body = BeautifulSoup(html, "html.parser").find("table", class_="data-table").tbody
    return [row.find("th").get_text(" ", strip=True) for row in body.find_all("tr")]


def test_provider_table_shows_at_most_two_rows_and_links_to_the_data_page(client):
    data = glm_data()
    page = make_article([table(data, max_rows=2)])
    html = client.get(page.url).content.decode()
    assert row_names(html, "provider-table") == ["Baseten (Fast)", "Together AI"]
    assert "Showing 2 of 4 rows." in html
    assert f'href="{page.url}data/"' in html

    figures = page_figures(list(page.body), page.page_data)
    assert {item.figure.row for item in figures} == SHOWN
    listed = data_page_rows(client, page)
    assert listed and all(any(name in row for name in SHOWN) for row in listed)
    assert not any(name in row for row in listed for name in CUT)


def test_leaderboard_cut_to_two_rows_links_to_the_data_page(client):
    data = glm_data()
    page = make_article([leaderboard(data, limit=2)])
    html = client.get(page.url).content.decode()
    assert row_names(html, "leaderboard") == ["Baseten (Fast)", "Together AI"]
    assert "Showing 2 of 4 rows." in html and f'href="{page.url}data/"' in html
    figures = page_figures(list(page.body), page.page_data)
    assert [item.figure.row for item in figures] == ["GLM-5.3 · Baseten (Fast)", "GLM-5.3 · Together AI"]


def test_a_table_without_a_limit_shows_every_row_and_no_link(client):
    data = glm_data()
    page = make_article([table(data)])
    html = client.get(page.url).content.decode()
    assert len(row_names(html, "provider-table")) == 4
    assert "Showing" not in html
    assert {item.figure.row for item in page_figures(list(page.body), page.page_data)} == SHOWN | CUT


def test_the_spanish_page_says_rows_were_cut_in_spanish(client):
    data = glm_data()
    page = make_article([table(data, max_rows=2)])
    from django.utils import translation

    with translation.override("es"):
        url = page.get_url()
    html = client.get(url).content.decode()
    assert "Se muestran 2 de 4 filas." in html
    assert f'href="{url}datos/"' in html  # the data page's Spanish segment
