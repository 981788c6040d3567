"""A sentence and the table beside it print the same figure: the scorecard's table said "10.5 s" and its
provider list "10.49 seconds" for the same end-to-end p99 (issue 25). Times in sentences round to the
metric's significant figures, as its table cells do."""

from decimal import Decimal

import pytest

from benchmarks.formatting import format_duration, format_metric
from benchmarks.metrics import get_metric

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("seconds", "cell", "sentence"), [
    ("10.4937", "10.5 s", "10.5 seconds"), ("12.449", "12.4 s", "12.4 seconds"), ("3.2272", "3.23 s", "3.23 seconds"),
    ("0.3312", "0.331 s", "331 ms"),
])
def test_a_time_in_a_sentence_rounds_as_its_table_cell(seconds, cell, sentence):
    metric = get_metric("e2e_p99")
    assert format_metric(metric, Decimal(seconds), lang="en") == cell
    assert format_duration(Decimal(seconds), lang="en", significant=metric.significant) == sentence


@pytest.mark.parametrize(("url", "said"), [("/en/glm-5-3-flash-providers/", "10.5 seconds end-to-end p99"),
                                           ("/es/proveedores-glm-5-3-flash/", "10.5 segundos")])
def test_the_scorecard_list_prints_the_tables_figure(client, demo_site, url, said):
    text = client.get(url).content.decode()
    assert "10.5 s" in text and said in text
    assert "10.49" not in text and "12.45" not in text
