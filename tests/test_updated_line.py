"""The article's "Updated" line says when a figure last changed, a correction included (issue 25: it kept
the measurement time after a correction); "Data as of" still says when the figures were measured."""

import re
from datetime import datetime
from decimal import Decimal

import pytest
from django.core.cache import cache

from benchmarks.models import Measurement
from tests.figures_support import publish_correction

pytestmark = pytest.mark.django_db

UPDATED = re.compile(r'class="change-log-link"[^>]*><time datetime="([^"]+)"')
DATA_AS_OF = re.compile(r'<p class="data-date">(.*?)</p>')


@pytest.mark.parametrize("url", ["/en/fastest-llm-api/", "/es/api-llm-mas-rapida/"])
def test_updated_follows_a_correction_and_data_as_of_the_measurement(client, demo_site, url):
    before = client.get(url).content.decode()
    row = Measurement.objects.filter(snapshot__status="published", metric="output_speed_median",
                                     endpoint__model__slug="glm-5-3").first()
    correction = publish_correction(row.snapshot, {(row.endpoint_id, row.metric): Decimal("140")})
    cache.clear()
    after = client.get(url).content.decode()
    updated = datetime.strptime(UPDATED.search(after).group(1), "%Y-%m-%dT%H:%M:%S%z")
    assert updated == correction.published_at.replace(microsecond=0)
    assert UPDATED.search(before).group(1) != UPDATED.search(after).group(1)
    assert DATA_AS_OF.search(after).group(1) == DATA_AS_OF.search(before).group(1)
