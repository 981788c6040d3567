"""What the snapshot and price import tests share: the example files, and helpers that check a rejected
file wrote nothing. Their fixtures (the catalogue the example files name) are in conftest.py."""

from pathlib import Path

import pytest

from benchmarks.ingest.importers import ImportRejected
from benchmarks.models import Measurement, Price, Snapshot

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = ROOT / "docs" / "examples"
# The example files use the demo's slugs (together-ai, novita-ai, z-ai); the inline rows below the short ones.
PROVIDERS = ["baseten", "together", "novita", "zai", "together-ai", "novita-ai", "z-ai", "deepinfra", "fireworks", "deepseek"]
AA_DEEPSEEK_URL = "https://artificialanalysis.ai/models/deepseek-v4-1-flash-1017/providers"


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


PRICE_HEADER = "provider,model,tier,input_per_m,output_per_m,currency,effective_date"
