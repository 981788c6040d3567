"""A pick's price citation follows the data: it is the price page of whichever endpoint is picked."""

import pytest

from articles.blocks import PicksTableBlock
from articles.blocks.base import BoundChild
from articles.data import PageData
from benchmarks.models import Price
from tests.factories import SourceFactory
from tests.figures_support import glm_data, publish_correction

pytestmark = pytest.mark.django_db


def pick_sources(glm):
    block = PicksTableBlock()
    value = block.to_python({"caption": "", "rows": [{
        "need": "highest_accuracy", "model": glm["model"].pk, "source": glm["source"].pk,
        "compare_with": glm["novita"].pk, "cite_price": True, "extra_citations": []}]})
    data = PageData(blocks=[BoundChild(block, value)])
    row = value["rows"][0].compute(data)
    return row["pick"], row["sources"]


def test_the_price_citation_moves_with_the_pick():
    glm = glm_data()
    zai_pricing = SourceFactory(publisher="Z.ai", title="pricing", kind="price_list")
    Price.objects.filter(endpoint=glm["zai"]).update(source=zai_pricing)

    pick, sources = pick_sources(glm)
    assert pick == glm["zai"]
    assert sources == [glm["source"], zai_pricing]

    # a correction makes Baseten (Fast) the most accurate: Z.ai's price page no longer applies
    publish_correction(glm["snapshot"], {(glm["fast"].pk, "accuracy_index"): 99.5})
    pick, sources = pick_sources(glm)
    assert pick == glm["fast"]
    assert sources == [glm["source"], glm["pricing"]]
    assert zai_pricing not in sources
