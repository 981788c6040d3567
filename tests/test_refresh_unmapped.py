"""Every unmapped upstream key is kept, cheaply, and editors find the ones that matter: by the provider
and model they name, by their words, those naming ours first (issue 26: with LiteLLM's full price list
the first 500 keys in alphabetical order hid every `together_ai/…`, `fireworks_ai/…`, `deepinfra/…` and
`groq/…` key)."""

import gzip
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from benchmarks.ingest.unmapped import KnownNames
from benchmarks.models import RefreshConfig, RefreshRun, UnmappedUpstreamRow, UpstreamMapping

from .refresh_support import (
    EXAMPLES,
    LITELLM,
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
    refresh_fixture,  # noqa: F401  (the refresh fixture)
    world_fixture,  # noqa: F401  (the world fixture)
)

pytestmark = pytest.mark.django_db
REAL_LITELLM = "real_litellm_model_prices_and_context_window_1.110.2.json.gz"


def listed(key, page):
    return re.search(r">\s*" + re.escape(key) + r"\s*<", page) is not None


@pytest.fixture
def whole_price_list(world, fake_upstream):
    """LiteLLM's real file (4,878 keys), read whole by the LiteLLM source."""
    fake_upstream.set(LITELLM, gzip.decompress((EXAMPLES / REAL_LITELLM).read_bytes()).decode())
    RefreshConfig.objects.filter(source=world.litellm).update(params={"include": ["*"]})
    return world.litellm


def test_every_unmapped_key_of_the_whole_price_list_is_stored_once(world, whole_price_list, refresh):
    with CaptureQueriesContext(connection) as first_queries:
        run = refresh(whole_price_list)

    assert run.status in (RefreshRun.Status.CHANGED, RefreshRun.Status.HELD), run.error
    assert run.unmapped_rows > 3000
    assert UnmappedUpstreamRow.objects.filter(upstream="litellm").count() == run.unmapped_rows
    for key in (
        "together_ai/zai-org/GLM-5.2",
        "fireworks_ai/glm-5p3",
        "deepinfra/deepseek-ai/DeepSeek-V4.1-Flash-1017",
        "groq/openai/gpt-oss-20b",
    ):
        assert UnmappedUpstreamRow.objects.filter(upstream_id=key).exists(), key
    assert not UnmappedUpstreamRow.objects.filter(upstream_id="groq/openai/gpt-oss-120b").exists()  # mapped

    # The next run updates the same rows in place: no new rows, each seen twice.
    with CaptureQueriesContext(connection) as second_queries:
        again = refresh(whole_price_list)
    assert UnmappedUpstreamRow.objects.count() == again.unmapped_rows == run.unmapped_rows
    assert set(UnmappedUpstreamRow.objects.values_list("times_seen", flat=True)) == {2}
    # Batches of 1,000 rows, not a query per key.
    writes = [q for q in second_queries.captured_queries if "benchmarks_unmappedupstreamrow" in q["sql"]]
    assert len(writes) <= 3 * (run.unmapped_rows // 1000 + 1) + 1, len(writes)
    assert len(first_queries.captured_queries) < 80


def test_rows_naming_our_providers_and_models_come_first_and_can_be_filtered(
    world, whole_price_list, refresh, editor_client
):
    refresh(whole_price_list)
    together, glm = world.providers["Together AI"], world.models["GLM-5.3"]
    row = UnmappedUpstreamRow.objects.get(upstream_id="fireworks_ai/glm-5p3")
    assert (row.provider, row.model, row.known_names) == (world.providers["Fireworks"], glm, 2)
    assert UnmappedUpstreamRow.objects.get(upstream_id="together_ai/zai-org/GLM-5.2").provider == together
    assert UnmappedUpstreamRow.objects.get(upstream_id="together_ai/zai-org/GLM-5.2").model is None  # not ours

    index = reverse("refresh_unmapped:index")
    first_page = editor_client.get(index).content.decode()
    # The list opens on the rows that name our providers and models, not on "aiml/…" keys.
    both = list(UnmappedUpstreamRow.objects.filter(known_names=2).values_list("upstream_id", flat=True))
    assert 0 < len(both) < 50  # all on the first page of 50
    assert [key for key in both if not listed(key, first_page)] == []
    assert not UnmappedUpstreamRow.objects.filter(upstream_id__startswith="aiml/", known_names=2).exists()
    assert not re.search(r">\s*aiml/", first_page)  # the first keys in alphabetical order wait their turn

    by_provider = editor_client.get(index, {"provider": together.pk, "q": "glm"}).content.decode()
    assert listed("together_ai/zai-org/GLM-5.2", by_provider) and not re.search(r">\s*fireworks_ai/", by_provider)
    by_model = editor_client.get(index, {"model": glm.pk}).content.decode()
    assert listed("fireworks_ai/glm-5p3-fast", by_model) and "GLM-5.2" not in by_model
    searched = editor_client.get(index, {"q": "deepinfra/deepseek"}).content.decode()
    assert listed("deepinfra/deepseek-ai/DeepSeek-V4.1-Flash-1017", searched)
    assert not re.search(r">\s*together_ai/", searched)


def test_mapping_a_row_takes_it_off_the_list_at_once(world, whole_price_list, refresh):
    refresh(whole_price_list)
    UpstreamMapping.objects.create(upstream="litellm", upstream_id="fireworks_ai/glm-5p3", ignored=True)
    assert not UnmappedUpstreamRow.objects.filter(upstream_id="fireworks_ai/glm-5p3").exists()


@pytest.mark.parametrize(
    "provider, model, expected",
    [
        ("together_ai", "GLM-5.3", ("Together AI", "GLM-5.3")),
        ("fireworks_ai", "glm-5p3-flash", ("Fireworks", "GLM-5.3-Flash")),
        ("Baseten (Fast)", "GLM-5.3-Fast", ("Baseten", "GLM-5.3")),
        ("z-ai", "glm-5.2", ("Z.ai", None)),  # GLM-5.2 is not GLM-5.3, nor "GLM-5" plus a digit
        ("OpenAI", "gpt-oss-120B (high)", ("OpenAI", "GPT-OSS 120B")),
        ("ai", "deepseek-v4.1-flash-1017", (None, "DeepSeek V4.1 Flash 1017")),
    ],
)
def test_names_are_recognised_only_as_hints(world, provider, model, expected):
    names = KnownNames()
    found = names.provider(provider), names.model(model)
    assert tuple(str(item.name) if item else None for item in found) == expected
