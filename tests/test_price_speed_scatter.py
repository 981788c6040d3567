"""Price vs speed: each endpoint of a model is a point (price per 1M output tokens, output speed); the
frontier (endpoints no other is at least as cheap and as fast as, and better on one) is computed as
its definition says, drawn as a step line and named on the chart; the table and the CSV hold the
same points, and the chart cites the benchmark and the price lists."""

import csv
import io
import random
import re
from decimal import Decimal

import pytest
from django.core.cache import cache

from articles.blocks.scatter import pareto_frontier
from tests.factories import (
    EndpointFactory,
    LanguageModelFactory,
    PriceFactory,
    ProviderFactory,
    SnapshotFactory,
    SourceFactory,
)
from tests.figures_support import make_article
from tests.pagecheck import visible_text

LINK = re.compile(r'<p class="download-link"><a href="([^"]+)"')

# name: (price per 1M output tokens or None, output speed)
HAND_MADE = {
    "Alpha": ("0.50", "100.0"),
    "Gamma": ("0.50", "90.0"),  # as cheap as Alpha, slower: dominated
    "Bravo": ("1.00", "200.0"),
    "Charlie": ("1.00", "150.0"),  # as cheap as Bravo, slower
    "Delta": ("2.00", "180.0"),  # dearer and slower than Bravo
    "Echo": ("3.00", "300.0"),
    "Foxtrot": ("3.00", "300.0"),  # the same as Echo: neither beats the other
    "Hotel": (None, "500.0"),  # no price: not plotted
}


def brute_force(points):
    """The definition: no other point at least as cheap and as fast, and cheaper or faster."""
    return {
        name for name, x, y in points
        if not any(ox <= x and oy >= y and (ox < x or oy > y) for other, ox, oy in points if other != name)
    }


def test_the_frontier_follows_its_definition_on_the_hand_made_set_and_on_random_ones():
    points = [(name, Decimal(x), Decimal(y)) for name, (x, y) in HAND_MADE.items() if x is not None]
    found = {item for _x, _y, item in pareto_frontier([(x, y, name) for name, x, y in points])}
    assert found == brute_force(points) == {"Alpha", "Bravo", "Echo", "Foxtrot"}
    rng = random.Random(7)
    for _round in range(200):
        points = [(n, Decimal(rng.randint(1, 6)), Decimal(rng.randint(1, 6))) for n in range(rng.randint(1, 9))]
        found = {item for _x, _y, item in pareto_frontier([(x, y, name) for name, x, y in points])}
        assert found == brute_force(points), points
    # Lower is better on y (a time): the frontier is then the cheapest for each shorter time.
    timed = [(Decimal(1), Decimal("0.9"), "slow"), (Decimal(2), Decimal("0.4"), "quick"), (Decimal(3), Decimal("0.5"), "no")]
    assert [item for _x, _y, item in pareto_frontier(timed, higher_y_better=False)] == ["slow", "quick"]


@pytest.mark.django_db
def test_the_chart_names_the_frontier_and_the_table_and_csv_hold_the_same_points(client):
    cache.clear()
    model = LanguageModelFactory(name="Scatter 1", slug="scatter-1")
    source = SourceFactory(publisher="Speed probe", title="Scatter 1 providers", url="https://example.com/speed")
    pricing = SourceFactory(publisher="Price lists", title="Scatter 1 prices", kind="price_list",
                            url="https://example.com/prices")
    values = []
    for name, (price, speed) in HAND_MADE.items():
        endpoint = EndpointFactory(provider=ProviderFactory(name=name, slug=name.lower()), model=model)
        values.append((endpoint, "output_speed_median", speed))
        if price is not None:
            PriceFactory(endpoint=endpoint, input_per_m=Decimal("0.10"), output_per_m=Decimal(price), source=pricing)
    SnapshotFactory(source=source, values=values, published=True)
    value = {"model": model.pk, "source": source.pk, "x_axis": "price_output", "y_metric": "output_speed_median",
             "name_style": "short", "note": "", "caption_en": ""}
    page = make_article([{"type": "price_speed_scatter", "value": value}], sources=[source, pricing])
    html = client.get(page.url).text

    assert 'role="img"' in html and re.search(r'aria-labelledby="[^"]+-title [^"]+-desc"', html)
    assert re.findall(r'<text class="scatter-label"[^>]*>([^<]+)</text>', html) == ["Alpha", "Bravo", "Echo", "Foxtrot"]
    assert html.count('<g class="scatter-point') == 7
    desc = re.search(r"<desc[^>]*>([^<]+)</desc>", html).group(1)
    assert "for 7 endpoints of Scatter 1" in desc and desc.endswith("Alpha, Bravo, Echo, Foxtrot.")
    # The step line: across from each frontier point to the next one's price, then up to its speed.
    steps = re.search(r'<polyline class="scatter-frontier" points="([^"]+)"', html).group(1).split()
    assert len(steps) == 7  # Alpha, (Bravo's x, Alpha's y), Bravo, (Echo's x, Bravo's y), Echo, Foxtrot (same)
    assert steps[1].split(",")[1] == steps[0].split(",")[1] and steps[1].split(",")[0] == steps[2].split(",")[0]
    text = " ".join(visible_text(html).split())
    assert "Not plotted (a value is missing): Hotel" in text
    caption = re.search(r'<figcaption class="chart-caption">(.*?)</figcaption>', html, re.S).group(1)
    assert re.findall(r'href="#source-(\d)"', caption) == ["1", "2"]  # the benchmark and the price list

    body = re.search(r'<table class="scatter-table">.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    rows = [[" ".join(visible_text(cell).split()) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]
    assert len(rows) == 7
    assert {row[0] for row in rows if row[3] == "yes"} == {"Alpha", "Bravo", "Echo", "Foxtrot"}
    assert ["Bravo", "$1.00", "200.0", "yes"] in rows

    [link] = LINK.findall(html)
    reader = list(csv.reader(io.StringIO(client.get(link).content.decode())))
    assert reader[0] == ["endpoint", "Price per 1M output tokens (USD)", "Output speed (tokens/s)", "on the frontier",
                         "source"]
    assert [(r[0].split(" · ")[0], f"${Decimal(r[1]):.2f}", r[2], r[3]) for r in reader[1:]] == [
        tuple(row) for row in rows]
    assert all("Speed probe" in r[4] and "Price lists" in r[4] for r in reader[1:])
    spanish = client.get(page.url.replace("/en/", "/es/", 1).replace(page.slug_en, page.slug_es)).text
    words = " ".join(visible_text(spanish).split())
    assert "Velocidad de salida (tokens/s) frente a Precio por 1M de tokens de salida (USD) · Scatter 1" in words
    assert "Tabla de datos" in words and "En la frontera" in words and "Sin representar (falta un valor): Hotel" in words
    assert re.findall(r'<text class="scatter-label"[^>]*>([^<]+)</text>', spanish) == ["Alpha", "Bravo", "Echo", "Foxtrot"]
