"""The import management commands: reports, idempotence, exit codes."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import translation

from benchmarks.ingest.importers import ImportRejected
from benchmarks.models import Measurement, Price, Snapshot, Source
from tests.test_imports import PRICE_HEADER

from .factories import EndpointFactory, LanguageModelFactory, ProviderFactory, SourceFactory

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
# The example files use the demo's slugs (together-ai, novita-ai, z-ai); the inline rows below the short ones.
PROVIDERS = ["baseten", "together", "novita", "zai", "together-ai", "novita-ai", "z-ai", "deepinfra", "fireworks", "deepseek"]
AA_DEEPSEEK_URL = "https://artificialanalysis.ai/models/deepseek-v4-1-flash-1017/providers"


@pytest.fixture(autouse=True)
def english():
    """Messages are compared in English, whatever language an earlier test left active."""
    with translation.override("en"):
        yield


@pytest.fixture
def catalogue(db):
    """The providers, models, endpoints and sources the example files in docs/examples name."""
    providers = {slug: ProviderFactory(slug=slug, name=slug.title()) for slug in PROVIDERS}
    models = {
        "glm-5-3": LanguageModelFactory(slug="glm-5-3", name="GLM-5.3"),
        "deepseek-v4-1-flash-1017": LanguageModelFactory(
            slug="deepseek-v4-1-flash-1017", name="DeepSeek V4.1 Flash 1017"
        ),
    }
    endpoints = {}
    for model in models.values():
        for provider in providers.values():
            endpoints[(provider.slug, model.slug, "")] = EndpointFactory(provider=provider, model=model)
        endpoints[("baseten", model.slug, "Fast")] = EndpointFactory(
            provider=providers["baseten"], model=model, tier="Fast"
        )
    sources = {
        "aa_glm": SourceFactory(url="https://artificialanalysis.ai/models/glm-5-3/providers"),
        "aa_deepseek": SourceFactory(url=AA_DEEPSEEK_URL),
        "price_list": SourceFactory(url="https://deepinfra.com/zai-org/GLM-5.3", kind=Source.Kind.PRICE_LIST),
        "novita": SourceFactory(url="https://novita.ai/models/llm/zai-org-glm-5.3", kind=Source.Kind.PRICE_LIST),
        "zai": SourceFactory(url="https://docs.z.ai/guides/overview/pricing", kind=Source.Kind.PRICE_LIST),
        "baseten": SourceFactory(url="https://www.baseten.co/pricing/", kind=Source.Kind.PRICE_LIST),
        "together": SourceFactory(url="https://www.together.ai/pricing", kind=Source.Kind.PRICE_LIST),
    }
    return {"providers": providers, "models": models, "endpoints": endpoints, "sources": sources}


def nothing_written():
    return Snapshot.objects.count() == 0 and Measurement.objects.count() == 0 and Price.objects.count() == 0


def rejected_messages(importer, raw, **kwargs):
    with pytest.raises(ImportRejected) as info:
        importer(raw, **kwargs)
    assert nothing_written()
    return [str(error) for error in info.value.errors]


def csv_snapshot(*rows, header="provider,model,tier,metric,value"):
    return ("\n".join([header, *rows]) + "\n").encode()


GOOD_ROWS = (
    "baseten,glm-5-3,Fast,output_speed_median,283.4",
    "together,glm-5-3,,output_speed_median,164.3",
    "together,glm-5-3,,ttfc_median,0.67",
)


# --- good files ---------------------------------------------------------------------------------


# --- management commands -------------------------------------------------------------------------


def test_import_snapshot_command_reports_and_is_idempotent(catalogue):
    path = str(EXAMPLES / "snapshot.json")
    out = StringIO()
    call_command("import_snapshot", path, "--publish", stdout=out)
    assert "Imported 14 measurements into snapshot" in out.getvalue() and "published" in out.getvalue()
    out = StringIO()
    call_command("import_snapshot", path, stdout=out)
    assert "already imported" in out.getvalue()
    assert Snapshot.objects.count() == 1


def test_import_prices_command_lists_errors_and_fails(catalogue, tmp_path):
    bad = tmp_path / "prices.csv"
    bad.write_text(
        f"{PRICE_HEADER}\nzai,glm-5-3,,1.40,4.40,,2026-11-28\nzai,glm-5-3,,x,4.40,USD,2026-11-29\n"
    )
    err = StringIO()
    with pytest.raises(CommandError, match=r"2 errors in prices.csv; nothing was written"):
        call_command(
            "import_prices", str(bad), "--source", str(catalogue["sources"]["price_list"].pk), stderr=err
        )
    assert err.getvalue().splitlines() == [
        "prices.csv: row 2, column currency: A price needs a currency (e.g. USD).",
        "prices.csv: row 3, column input_per_m: 'x' is not a number",
    ]
    assert nothing_written()


def test_command_exits_non_zero_on_bad_input(db, tmp_path):
    # A separate process sees only committed rows: none here, so every name in the file is unknown.
    bad = tmp_path / "snapshot.csv"
    bad.write_bytes(csv_snapshot("nobody,glm-5-3,,output_speed_median,fast"))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    env["TEST_DATABASE_URL"] = "postgres://{USER}@{HOST}:{PORT}/{NAME}".format(
        **{k: connection.settings_dict[k] or "" for k in ("USER", "HOST", "PORT", "NAME")}
    )
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "import_snapshot",
            str(bad),
            "--source",
            "1",
            "--measured-at",
            "2026-11-28",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "snapshot.csv: row 2, column provider: unknown provider “nobody”" in result.stderr
    assert "snapshot.csv: row 2, column value: 'fast' is not a number" in result.stderr
    assert "nothing was written" in result.stderr
