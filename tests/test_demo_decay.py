"""The demo does not decay: a database loaded by `make run` and opened a week later shows the same
demo articles, labelled as demo data, with the way their dates are set."""

import datetime

import pytest
from django.db.models import F

from tests.pagecheck import expected_lines, in_order_share
from tests.refresh_support import staged_history
from tests.test_demo_pages import PAGES

WEEK = datetime.timedelta(days=7)


def age_demo_data(by=WEEK):
    """Move every stored moment back, as if the database had been loaded `by` ago."""
    from benchmarks.cache import bump_data_generation
    from benchmarks.models import Price, Snapshot

    with staged_history():  # published history is immutable; this only stages the passing of time
        Snapshot.objects.update(
            measured_at=F("measured_at") - by, fetched_at=F("fetched_at") - by, created_at=F("created_at") - by
        )
        Snapshot.objects.exclude(published_at=None).update(published_at=F("published_at") - by)
        Price.objects.update(created_at=F("created_at") - by)
    bump_data_generation()


@pytest.mark.parametrize(("url", "reference"), PAGES)
def test_demo_pages_read_the_same_a_week_later(client, demo_site, url, reference):
    from articles.demo import load_demo_site

    age_demo_data()
    load_demo_site()  # `make run` again: the setup step runs on an existing database
    html = client.get(url).content.decode()
    share, missing = in_order_share(expected_lines(reference), html)
    assert share >= 98.0, f"{share:.1f}% of characters in order a week later; first missing: {missing[:5]}"
    assert "Not measured yet" not in html and "stale-flag" not in html


def test_demo_sources_are_labelled_in_the_admin_and_on_the_page(client, admin_client, demo_site):
    from benchmarks.models import Source

    # 18 cited, the run, its probe series, LiteLLM
    assert Source.objects.count() == Source.objects.filter(is_demo=True).count() == 21
    html = client.get("/en/fastest-llm-api/").content.decode()
    assert "Demo data." in html and "dated when the demo is loaded" in html
    assert html.count("(demo data)") == 18
    spanish = client.get("/es/api-llm-mas-rapida/").content.decode()
    assert "Datos de demostración." in spanish and "(datos de demostración)" in spanish
    listing = admin_client.get("/admin/snippets/benchmarks/source/?is_demo=true")
    assert listing.status_code == 200 and "Demo data" in listing.content.decode()


def test_a_real_source_still_goes_stale(demo_site):
    """Only demo data is exempt: the same figures from a source not marked as demo are flagged."""
    from articles.data import PageData
    from benchmarks.models import Measurement, Source

    age_demo_data()
    row = Measurement.objects.filter(snapshot__source__kind=Source.Kind.BENCHMARK, metric="output_speed_median").select_related(
        "snapshot__source").first()
    data = PageData()
    assert not data.is_stale(row)
    Source.objects.filter(pk=row.snapshot.source_id).update(is_demo=False)
    row = Measurement.objects.select_related("snapshot__source").get(pk=row.pk)
    assert data.is_stale(row)
