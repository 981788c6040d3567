"""The reference articles, rebuilt from data by load_demo, match the expected data-bound lines."""

import pytest

from tests.pagecheck import expected_lines, in_order_share

PAGES = [
    ("/en/fastest-llm-api/", "000_en_data.txt"),
    ("/es/api-llm-mas-rapida/", "001_es_data.txt"),
    ("/en/glm-5-3-flash-providers/", "003_en_data.txt"),
]


@pytest.mark.parametrize(("url", "reference"), PAGES)
def test_demo_page_matches_reference_lines(client, demo_site, url, reference):
    response = client.get(url)
    assert response.status_code == 200
    share, missing = in_order_share(expected_lines(reference), response.text)
    assert share >= 98.0, f"{share:.1f}% of characters in order; first missing: {missing[:5]}"


def test_load_demo_is_idempotent_for_data(db):
    from articles.demo import load_demo_site
    from benchmarks.models import Endpoint, Measurement, Price, Snapshot, Source

    load_demo_site()
    counts = [m.objects.count() for m in (Source, Endpoint, Snapshot, Measurement, Price)]
    load_demo_site()
    assert [m.objects.count() for m in (Source, Endpoint, Snapshot, Measurement, Price)] == counts
    # the 18 numbered sources, the first-party run, its probe series and the refreshable LiteLLM list
    assert counts[0] == 21


def test_scorecard_differences_are_computed_not_typed(client, demo_site):
    """The +7259 ms of Fireworks comes from the stored p99 values, so a correction moves it."""
    from decimal import Decimal

    from benchmarks.models import Measurement, Snapshot

    text = client.get("/en/glm-5-3-flash-providers/").text
    assert "+7,259 ms" in text
    run = Snapshot.objects.get(source__url="https://github.com/openbenchmarks-labs/inference", status="published")
    correction = Snapshot.objects.create(source=run.source, measured_at=run.measured_at, workload=run.workload)
    for row in run.measurements.all():
        value = row.value
        if row.metric == "e2e_p99" and row.endpoint.provider.slug == "fireworks":
            value = Decimal("10.5862")
        Measurement.objects.create(snapshot=correction, endpoint=row.endpoint, metric=row.metric, value=value)
    run.publish_correction(correction, "Fireworks p99 re-measured")
    from benchmarks.cache import bump_data_generation

    bump_data_generation()
    text = client.get("/en/glm-5-3-flash-providers/").text
    assert "+7,359 ms" in text and "+7,259 ms" not in text


def test_data_trail_lists_each_figure_with_snapshot_and_source(client, demo_site):
    from benchmarks.models import Snapshot

    article = client.get("/en/fastest-llm-api/")
    assert 'href="/en/fastest-llm-api/data/"' in article.text
    # every figure carries its trail as a tooltip too
    snapshot = Snapshot.objects.get(source__title_en="GLM-5.3 providers", status="published")
    assert f"Artificial Analysis · GLM-5.3 providers · snapshot {snapshot.pk}" in article.text
    trail = client.get("/en/fastest-llm-api/data/")
    assert trail.status_code == 200
    row = trail.text[trail.text.index("Baseten (Fast)"):]
    assert "283.4" in trail.text and f"#{snapshot.pk}" in row
    assert "https://artificialanalysis.ai/models/glm-5-3/providers" in trail.text
    assert "$0.037 / $0.17" in trail.text
    es = client.get("/es/api-llm-mas-rapida/datos/")
    assert es.status_code == 200 and '<html lang="es">' in es.text


def test_demo_prose_quotes_a_live_figure_in_both_languages(client, demo_site):
    """The DeepSeek paragraph quotes the fastest/slowest ratio as a data reference, not typed digits."""
    from articles.models import ArticlePage

    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    raw = str(page.body_en.raw_data) + str(page.body_es.raw_data)
    assert "12.8" not in raw and raw.count('embedtype=\\"dataref\\"') + raw.count('embedtype="dataref"') >= 2
    for url in ("/en/fastest-llm-api/", "/es/api-llm-mas-rapida/"):
        text = client.get(url).text
        assert 'class="dataref"' in text and ">12.8×</span>" in text
