"""Demo figures say they are demo data wherever a reader meets them (issue 25: the banner was on the
articles only): the data page, the change log and each row of the figure downloads, in both languages."""

import csv
import io
import json
from decimal import Decimal

import pytest
from django.core.cache import cache

from benchmarks.models import Measurement, Source
from tests.figures_support import publish_correction

pytestmark = pytest.mark.django_db

BANNER = {"en": "Demo data.", "es": "Datos de demostración."}
PAGES = {"en": ("/en/fastest-llm-api/", "data/", "changes/"), "es": ("/es/api-llm-mas-rapida/", "datos/", "cambios/")}


def corrected(demo_site):
    row = Measurement.objects.filter(snapshot__status="published", metric="output_speed_median").first()
    publish_correction(row.snapshot, {(row.endpoint_id, row.metric): row.value + Decimal("1")})
    cache.clear()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_data_page_the_change_log_and_the_files_say_demo_data(client, demo_site, lang):
    corrected(demo_site)
    article, data, changes = PAGES[lang]
    for url in (article, article + data, article + changes):
        text = client.get(url).content.decode()
        assert 'class="demo-data"' in text and BANNER[lang] in text, url
    rows = list(csv.reader(io.StringIO(client.get(article + data + "csv/").content.decode())))
    flag = rows[0].index({"en": "demo data", "es": "datos de demostración"}[lang])
    source = rows[0].index({"en": "source", "es": "fuente"}[lang])
    sourced = [row for row in rows[1:] if row[source]]
    assert sourced and all(row[flag] == {"en": "yes", "es": "sí"}[lang] for row in sourced)
    document = json.loads(client.get(article + data + "json/").content)
    assert document["demo_data"] is True
    assert all(figure["demo_data"] for figure in document["figures"] if figure["sources"])


def test_no_banner_once_the_sources_are_real(client, demo_site):
    Source.objects.update(is_demo=False)
    corrected(demo_site)
    article, data, changes = PAGES["en"]
    for url in (article, article + data, article + changes):
        assert 'class="demo-data"' not in client.get(url).content.decode(), url
    document = json.loads(client.get(article + data + "json/").content)
    assert document["demo_data"] is False and not any(figure["demo_data"] for figure in document["figures"])
