"""Readers download an article's figures: every table, chart and leaderboard links to its own CSV, and
the data page offers the whole article as CSV and JSON. The files hold what the page prints (a
plain number column next to the printed text), with snapshot dates and sources, and cannot smuggle
a formula into a spreadsheet."""

import csv
import datetime
import io
import re
from collections import Counter
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import (
    EndpointFactory,
    LanguageModelFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)
from tests.figures_support import glm_data, make_article, table
from tests.pagecheck import squeeze, visible_text
from tests.test_csv_export import PAYLOADS
from tests.test_render_cost import build_article

pytestmark = pytest.mark.django_db

ARTICLE = "/en/fastest-llm-api/"
ARTICLE_ES = "/es/api-llm-mas-rapida/"
HEADERS_EN = ["block", "figure", "endpoint", "metric", "value", "full precision", "unit", "as printed",
              "snapshot date", "source", "source URL", "based on", "stale", "demo data"]
LINK = re.compile(r'<p class="download-link"><a href="([^"]+)"')


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def read_csv(response):
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8"))))


def printed(page_html):
    return squeeze(visible_text(page_html))


def test_the_article_csv_holds_every_figure_the_page_prints(client, demo_site):
    page = client.get(ARTICLE).text
    response = client.get(ARTICLE + "data/csv/")
    rows = read_csv(response)
    assert response["Content-Disposition"] == 'attachment; filename="fastest-llm-api-figures.csv"'
    assert next(csv.reader(io.StringIO(response.content.decode()))) == HEADERS_EN
    assert len(rows) > 100
    shown = printed(page)
    for row in rows:
        assert squeeze(row["as printed"]) in shown, row
        if row["as printed"] != "—":  # a dash (not measured) has nothing behind it
            assert row["source"] and row["source URL"].startswith("https://"), row
        if row["value"]:  # machine-readable: a plain number whatever the page's separators
            assert re.fullmatch(r"-?\d+(\.\d+)?", row["value"]), row
    speed = next(r for r in rows if r["figure"] == "Baseten (Fast) · Output speed" and "GLM-5.3" in r["block"]
                 and r["endpoint"] == "Baseten (Fast) · GLM-5.3")
    assert (speed["value"], speed["unit"], speed["as printed"]) == ("283.4", "tokens/s", "283.4")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", speed["snapshot date"])
    assert speed["source URL"] == "https://artificialanalysis.ai/models/glm-5-3/providers"
    # A printed price pair is two numbers: input and output per 1M tokens, from the price list.
    prices = [r for r in rows if r["as printed"] == "$0.037 / $0.17"]
    assert {(r["metric"], r["value"], r["unit"]) for r in prices} == {
        ("input price per 1M tokens", "0.037", "USD"), ("output price per 1M tokens", "0.17", "USD")}
    # The thousands separator the page prints is not in the number column.
    assert any(r["as printed"] == "1,693.7" and r["value"] == "1693.7" for r in rows)


def test_the_json_holds_the_same_rows_with_numbers(client, demo_site):
    rows = read_csv(client.get(ARTICLE + "data/csv/"))
    response = client.get(ARTICLE + "data/json/")
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert 'filename="fastest-llm-api-figures.json"' in response["Content-Disposition"]
    document = response.json()
    assert document["url"] == "http://testserver/en/fastest-llm-api/"
    assert document["language"] == "en"
    assert any("Artificial Analysis" in line for line in document["attributions"])
    figures = document["figures"]
    assert len(figures) == len(rows)
    assert [f["text"] for f in figures] == [r["as printed"] for r in rows]
    measured = [f for f in figures if f["value"] is not None]
    assert measured and all(isinstance(f["value"], (int, float)) for f in measured)
    first = next(f for f in figures if f["text"] == "283.4")
    assert first["value"] == 283.4 and first["metric"] == "output_speed_median"
    assert first["sources"][0]["url"] == "https://artificialanalysis.ai/models/glm-5-3/providers"
    assert first["snapshot_ids"] and first["endpoint"]["provider"] == "Baseten"


def test_each_table_and_chart_links_to_a_csv_of_its_own_figures(client, demo_site):
    page = client.get(ARTICLE).text
    links = LINK.findall(page)
    # Picks table, then a provider table and a bar chart per model, and GLM-5.3's price vs speed scatter.
    assert len(links) == 10 and len(set(links)) == 10
    assert page.count(">Download CSV<") == 10
    whole = read_csv(client.get(ARTICLE + "data/csv/"))
    seen = 0
    for link in links:
        assert link.startswith(ARTICLE + "data/csv/")
        response = client.get(link)
        rows = read_csv(response)
        if rows and "block" not in rows[0]:  # a chart whose file is its own table: the scatter's points
            assert "endpoint" in rows[0] and len(rows) >= 3, link
            continue
        assert rows and len({row["block"] for row in rows}) == 1, link
        block = rows[0]["block"]
        assert rows == [row for row in whole if row["block"] == block]
        assert response["Content-Disposition"].startswith('attachment; filename="fastest-llm-api-')
        seen += len(rows)
    chart = read_csv(client.get(links[2]))
    assert chart[0]["block"].startswith("Bar chart · GLM-5.3")
    assert seen < len(whole)  # paragraphs' data references are in the article's file only


def test_an_unknown_block_has_no_file(client, demo_site):
    assert client.get(ARTICLE + "data/csv/00000000-0000-0000-0000-000000000000/").status_code == 404


def test_a_leaderboard_csv_gives_the_average_the_page_prints_with_every_snapshot(client):
    model = LanguageModelFactory(name="Kimi K3")
    source = SourceFactory(publisher="Our probe", title="Kimi K3 plans", url="https://example.com/kimi")
    plan = EndpointFactory(provider=ProviderFactory(name="Moonshot"), model=model)
    now = timezone.now()
    for hours, speed in ((20, "90"), (10, "100"), (2, "111")):
        SnapshotFactory(source=source, measured_at=now - datetime.timedelta(hours=hours),
                        values=[(plan, "output_speed_median", speed)], published=True)
    board = {"metric": "output_speed_median", "models": [{"model": model.pk, "source": source.pk}],
             "window_hours": 24, "limit": None, "name_style": "short"}
    page = make_article([{"type": "leaderboard", "value": board}], sources=[source])

    article = client.get(page.url).text
    [link] = LINK.findall(article)
    [row] = read_csv(client.get(link))
    cell = re.search(r'<td class="num"[^>]*>([^<]+)<', article).group(1)
    assert row["as printed"] == cell == "100.3"  # (90 + 100 + 111) / 3, as printed
    assert row["value"] == "100.3" and row["unit"] == "tokens/s"
    # What the printed value rounds, for a reader who needs more than the page shows.
    assert row["full precision"].startswith("100.33333") and row["stale"] == ""
    assert row["based on"] == "average of 3 values over 24 h"
    assert len(row["snapshot date"].split("; ")) == 3
    assert row["source"] == "Our probe · Kimi K3 plans" and row["source URL"] == "https://example.com/kimi"
    [figure] = client.get(page.url + "data/json/").json()["figures"]
    assert figure["value"] == 100.3 and figure["full_precision"].startswith("100.33333")


def test_rounded_figures_carry_their_stored_value_and_stale_ones_say_so(client):
    model = LanguageModelFactory(name="Kimi K3")
    source = SourceFactory(publisher="Our probe", title="Kimi K3 plans", url="https://example.com/kimi")
    plan = EndpointFactory(provider=ProviderFactory(name="Moonshot"), model=model)
    SnapshotFactory(source=source, measured_at=timezone.now() - datetime.timedelta(days=40),
                    values=[(plan, "output_speed_median", "283.4567"), (plan, "ttfc_median", "0.41234")],
                    published=True)
    value = {"model": model.pk, "source": source.pk, "sort_metric": "output_speed_median",
             "columns": [{"field": "output_speed_median", "difference_to_leader": False},
                         {"field": "ttfc_median", "difference_to_leader": False}],
             "name_style": "short", "show_api_model": False, "cite_sources": True}
    page = make_article([{"type": "provider_table", "value": value}], sources=[source])
    rows = {row["metric"]: row for row in read_csv(client.get(page.url + "data/csv/"))}
    speed = rows["Output speed"]
    assert (speed["value"], speed["full precision"]) == ("283.5", "283.4567")
    assert speed["stale"] == "yes" and rows["First chunk"]["full precision"] == "0.41234"
    figures = client.get(page.url + "data/json/").json()["figures"]
    assert {f["full_precision"] for f in figures} == {"283.4567", "0.41234"}
    assert all(f["stale"] for f in figures)
    # The page's machine-readable values are plain numbers with a dot, in Spanish too.
    spanish = client.get(page.url.replace("/en/", "/es/", 1).replace(page.slug_en, page.slug_es)).text
    assert re.findall(r'<data value="([^"]+)"', spanish) == ["283.4567", "0.41234"]


def test_spanish_downloads_use_spanish_labels_and_plain_numbers(client, demo_site):
    response = client.get(ARTICLE_ES + "datos/csv/")
    assert response["Content-Disposition"] == 'attachment; filename="api-llm-mas-rapida-cifras.csv"'
    assert response["Content-Language"] == "es"
    header = next(csv.reader(io.StringIO(response.content.decode())))
    assert header == ["bloque", "cifra", "endpoint", "métrica", "valor", "precisión completa", "unidad",
                      "tal como se muestra", "fecha de la instantánea", "fuente", "URL de la fuente", "basada en",
                      "desfasado", "datos de demostración"]
    rows = read_csv(response)
    shown = printed(client.get(ARTICLE_ES).text)
    assert all(squeeze(row["tal como se muestra"]) in shown for row in rows)
    speed = next(r for r in rows if r["valor"] == "283.4" and r["tal como se muestra"] == "283.4")
    assert speed["métrica"] == "Velocidad de salida" and speed["bloque"].startswith("Tabla de proveedores")
    assert any(r["métrica"] == "precio de entrada por 1M de tokens" for r in rows)
    assert client.get(ARTICLE_ES).text.count(">Descargar CSV<") == 10
    assert LINK.findall(client.get(ARTICLE_ES).text)[0].startswith(ARTICLE_ES + "datos/csv/")


def test_names_shaped_like_formulas_arrive_as_text(client):
    """Provider and source names are editors' and upstreams' text; every payload of the CSV writer's tests
    (test_csv_export.py) is written with a leading apostrophe, the numbers stay numbers."""
    data = glm_data()
    evil_source = SourceFactory(publisher="＝1+1", title='=HYPERLINK("http://x","y")')
    evil = [EndpointFactory(provider=ProviderFactory(name=payload, slug=f"evil-{n}"), model=data["model"])
            for n, payload in enumerate(PAYLOADS)]
    SnapshotFactory(source=evil_source, values=[(e, "ttfc_median", f"-{n}.5") for n, e in enumerate(evil)],
                    published=True)
    page = make_article([table(data, source=evil_source.pk)], sources=[evil_source])
    text = client.get(page.url + "data/csv/").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert not any(cell.startswith(("=", "+", "@", "＝", "\t")) for row in rows for cell in row.values())
    endpoints = {row["endpoint"] for row in rows}
    for payload in PAYLOADS:
        assert any(endpoint.startswith("'" + payload) for endpoint in endpoints), payload
    assert any(row["source"].startswith("'") for row in rows)
    assert {row["value"] for row in rows if row["endpoint"].startswith("'")} >= {"-0.50", "-1.50"}  # printed with two decimals, not escaped


def count_queries(client, url):
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200 and response["X-Page-Cache"] == "miss"
    return len(ctx.captured_queries), response


def test_a_csv_costs_the_same_queries_with_5_or_30_providers(client, demo_site, django_assert_max_num_queries):
    small, large = build_article(demo_site, 5), build_article(demo_site, 30)
    small_count, small_response = count_queries(client, small.url + "data/csv/")
    large_count, large_response = count_queries(client, large.url + "data/csv/")
    assert len(read_csv(large_response)) > 5 * len(read_csv(small_response))
    assert small_count == large_count
    json_count, _response = count_queries(client, small.url + "data/json/")
    cache.clear()
    with django_assert_max_num_queries(json_count):
        client.get(large.url + "data/json/")


def test_values_keep_the_precision_the_page_prints():
    from benchmarks.formatting import difference_number, printed_number
    from benchmarks.metrics import get_metric

    assert printed_number(get_metric("output_speed_median"), Decimal("100.3333")) == Decimal("100.3")
    assert f"{printed_number(get_metric('accuracy_index'), Decimal('98.60')):f}" == "98.6"
    assert difference_number(get_metric("ttfc_median"), Decimal("0.05")) == (Decimal("50"), "ms")


def test_millisecond_differences_group_their_digits_in_both_languages():
    """"+13842 ms" was hard to read; "+13,842 ms" is grouped with the same separator as every other figure
    of the page's language (NUMBER_FORMATS: the reference articles keep "1,693.7" in Spanish too)."""
    from benchmarks.formatting import format_difference, format_metric
    from benchmarks.metrics import get_metric

    first_chunk = get_metric("ttfc_median")
    for lang in ("en", "es"):
        # Grouped like the page's other figures ("1,693.7"): one page never groups digits two ways.
        assert format_difference(first_chunk, Decimal("13.842"), lang=lang) == "+13,842 ms"
        assert format_difference(first_chunk, Decimal("0.05"), lang=lang) == "+50 ms"
        assert format_difference(first_chunk, Decimal("-4.02"), lang=lang) == "\u22124,020 ms"
        assert format_metric(get_metric("tps_mean"), Decimal("1693.7"), lang=lang).startswith("1,693.7")


def test_downloads_flag_as_stale_what_the_page_flags_and_keep_every_full_precision(client, demo_site):
    """A week and a day after loading, with its sources no longer demo data, the page flags its figures
    stale, those in prose included ("6 stale · 26 Nov", "12.8× stale", a card's "2nd stale"): the
    files say so on the same rows, and give the unrounded number behind every rounded one."""
    from bs4 import BeautifulSoup

    from benchmarks.models import Source
    from tests.test_demo_decay import age_demo_data

    Source.objects.update(is_demo=False)
    age_demo_data(by=datetime.timedelta(days=8))
    page = BeautifulSoup(client.get(ARTICLE).text, "html.parser")
    in_prose = Counter((span.get_text(), "dataref--stale" in span["class"]) for span in page.select("span.dataref"))
    assert in_prose[("12.8×", True)] == 1 and in_prose[("2nd", True)] == 3 and in_prose[("CoreWeave", True)] == 1

    figures = client.get(ARTICLE + "data/json/").json()["figures"]
    rows = read_csv(client.get(ARTICLE + "data/csv/"))
    assert [f["stale"] for f in figures] == [row["stale"] == "yes" for row in rows]
    in_files = Counter((f["text"], f["stale"]) for f in figures)
    missing = {key: n for key, n in in_prose.items() if in_files[key] < n}
    assert not missing, f"printed in prose but not in the files as printed (text, stale): {missing}"

    ratio = next(f for f in figures if f["text"] == "12.8×")
    assert ratio["value"] == 12.8 and ratio["unit"] == "×"
    assert Decimal(ratio["full_precision"]).quantize(Decimal("0.1")) == Decimal("12.8")
    assert len(ratio["full_precision"]) > 6, "the ratio's unrounded value"
    prices = [f for f in figures if f["figure"].endswith("· Price per 1M output tokens")]
    assert len(prices) == 6
    for price in prices:
        assert price["metric_label"] == "Price per 1M output tokens" and price["stale"]
        assert Decimal(price["full_precision"]) == Decimal(str(price["value"])), price
    # Every rounded number carries what it rounds.
    assert all(f["full_precision"] for f in figures if f["value"] is not None)
    # The page's machine-readable numbers use a dot in Spanish too.
    spanish = client.get(ARTICLE_ES).text
    values = re.findall(r'<data value="([^"]*)"', spanish)
    assert values and all(re.fullmatch(r"-?\d+(\.\d+)?", value) for value in values)
