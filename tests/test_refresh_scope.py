"""A source writes only the upstream rows in its own scope: mappings belong to the upstream, so without
that rule a second source of the same upstream placed (and footnoted) the first one's figures
(issue 26: "GPT-OSS 120B providers" published the GLM-5.3 prices)."""

import json
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from benchmarks.ingest.refresh import run_refresh
from benchmarks.models import Measurement, Price, RefreshConfig, RefreshRun, Source, UpstreamMapping

from .refresh_support import (
    AA_GLM_ID,
    AA_GPT_OSS_ID,
    EXAMPLES,
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
    world_fixture,  # noqa: F401  (the world fixture)
)

pytestmark = pytest.mark.django_db


def legacy_source(title, params):
    source = Source.objects.create(
        title=title, publisher="Artificial Analysis", url=f"https://example.com/{len(title)}", auto_publish=True
    )
    RefreshConfig.objects.create(source=source, adapter="artificial_analysis_legacy_file", params=params)
    return source


@pytest.fixture
def saved_file(world, settings, tmp_path):
    """The legacy file with both models measured; GPT-OSS 120B's median mapped to Groq's endpoint."""
    body = json.loads((EXAMPLES / "synthetic_aa_data_llms_models.json").read_text())
    gpt = next(item for item in body["data"] if item["id"] == AA_GPT_OSS_ID)
    gpt.update(median_output_tokens_per_second=473.4, median_time_to_first_token_seconds=0.63)
    (tmp_path / "aa.json").write_text(json.dumps(body))
    settings.REFRESH_FILES_DIR = str(tmp_path)
    UpstreamMapping.objects.filter(upstream_id=AA_GPT_OSS_ID).update(provider=world.providers["Groq"])
    return "aa.json"


def written_by(source):
    return set(Measurement.objects.filter(snapshot__source=source).values_list("endpoint_id", flat=True)) | set(
        Price.objects.filter(source=source).values_list("endpoint_id", flat=True)
    )


def test_two_sources_of_one_upstream_never_write_each_others_figures(world, saved_file):
    glm = legacy_source("GLM-5.3 providers (file)", {"path": saved_file, "include": ["glm-5*"]})
    gpt = legacy_source("GPT-OSS 120B providers", {"path": saved_file})  # no scope, as in the report

    refused = run_refresh(gpt.pk)

    # Without a scope it would have placed every mapped row of the upstream, GLM-5.3's included.
    assert refused.status == RefreshRun.Status.FAILED
    assert "Say which upstream rows this source covers" in refused.error
    assert written_by(gpt) == set()

    RefreshConfig.objects.filter(source=gpt).update(params={"path": saved_file, "include": ["gpt-oss-120b*"]})
    assert run_refresh(glm.pk).status == RefreshRun.Status.CHANGED
    run = run_refresh(gpt.pk)

    assert run.status == RefreshRun.Status.CHANGED, run.error
    zai_glm, groq_gpt = world.glm["Z.ai"].pk, world.gpt_oss["Groq"].pk
    assert written_by(glm) == {zai_glm} and written_by(gpt) == {groq_gpt}
    assert "1 upstream rows are outside this source's parameters" in run.notes
    # What readers see of GLM-5.3 on Z.ai is cited to the GLM source only.
    speeds = Measurement.objects.latest(endpoints=[zai_glm], metrics=["output_speed_median"])
    assert {(m.snapshot.source_id, m.value) for m in speeds} == {
        (world.aa_providers.pk, Decimal("95")),  # the baseline of the per-provider source
        (glm.pk, Decimal("98.2")),
    }
    assert {p.source_id for p in Price.objects.filter(endpoint_id=zai_glm)} == {glm.pk}


def test_the_free_list_of_a_source_naming_its_models_reads_only_those_models(world, fake_upstream):
    # The free list says "tier": "free", so the per-provider part is skipped without asking.
    RefreshConfig.objects.filter(source=world.aa_free).update(params={"models": ["glm-5-3"]})

    run = run_refresh(world.aa_free.pk)

    assert run.status == RefreshRun.Status.CHANGED, run.error
    # GLM-5.3's model-level row only: DeepSeek's and GLM-5.3-Flash's mapped rows belong to other sources.
    assert written_by(world.aa_free) == {world.glm["Z.ai"].pk}
    assert run.rows_read == 1 and "4 upstream rows are outside this source's parameters" in run.notes


@pytest.mark.parametrize(
    "adapter, params",
    [
        ("artificial_analysis", {}),
        ("artificial_analysis", {"include": []}),
        ("artificial_analysis_legacy_file", {"path": "aa.json"}),
        ("litellm", {}),
    ],
)
def test_a_whole_list_source_without_a_scope_cannot_be_saved(world, adapter, params):
    config = RefreshConfig(source=world.aa_free, adapter=adapter, params=params)
    with pytest.raises(ValidationError) as error:
        config.clean()
    assert "Say which upstream rows this source covers" in str(error.value)
    RefreshConfig(source=world.aa_free, adapter=adapter, params={**params, "include": ["*"]}).clean()


def test_the_aa_glm_mapping_still_serves_every_source_whose_scope_holds_it(world, fake_upstream):
    """Mappings stay per upstream: one mapping places the row for each source that covers it."""
    assert UpstreamMapping.objects.filter(upstream_id=AA_GLM_ID).count() == 1
    run = run_refresh(world.aa_free.pk)  # scope ["*"]
    assert run.status == RefreshRun.Status.CHANGED, run.error
    assert world.glm["Z.ai"].pk in written_by(world.aa_free)
