"""The demo ships a refreshable source and a saved answer, so that after `make run` the README's one
command shows a refresh end to end, offline (issue 26: `manage.py refresh …` answered "Known: none").
The command is read from the README itself, so the README stays the truth."""

import io
import re
import shlex
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command

from benchmarks.models import Price, RefreshRun, Source, UnmappedUpstreamRow

README = Path(__file__).resolve().parent.parent / "README.md"


def readme_refresh_command():
    """The refresh command of the README's "Try a refresh", as the arguments of manage.py."""
    [line] = [line for line in README.read_text().splitlines() if re.match(r"\.venv/bin/python manage\.py refresh ", line)]
    words = shlex.split(line)
    assert words[:3] == [".venv/bin/python", "manage.py", "refresh"]
    return words[3:]


def run_readme_command(capture):
    """As in a terminal: the commit's after-commit work (the page caches' generation) runs."""
    out = io.StringIO()
    with capture(execute=True):
        call_command("refresh", *readme_refresh_command(), stdout=out)
    return out.getvalue()


@pytest.fixture
def offline(settings, monkeypatch):
    settings.LITELLM_PRICES_URL = "http://127.0.0.1:9/nowhere.json"  # a request would fail the run
    settings.REFRESH_HTTP_ATTEMPTS = 1


def test_the_readme_command_refreshes_the_demo_end_to_end_offline(
    demo_site, offline, client, django_capture_on_commit_callbacks
):
    deepinfra = Price.objects.current().get(endpoint__provider__slug="deepinfra",
                                            endpoint__model__slug="deepseek-v4-1-flash-1017")
    assert (deepinfra.input_per_m, deepinfra.output_per_m) == (Decimal("0.20"), Decimal("0.60"))
    article = client.get("/en/fastest-llm-api/").content.decode()
    assert "$0.20 / $0.60" in article

    text = run_readme_command(django_capture_on_commit_callbacks)

    litellm = Source.objects.get(publisher="LiteLLM")
    run = RefreshRun.objects.get(source=litellm)
    assert (run.status, run.trigger, run.published) == (RefreshRun.Status.CHANGED, RefreshRun.Trigger.REPLAY, True)
    assert "status: New snapshot" in text and f"snapshot: #{run.snapshot_id} (published)" in text
    prices = Price.objects.filter(snapshot=run.snapshot)
    assert prices.count() == run.rows_changed == 21
    now = Price.objects.current().get(pk=prices.get(endpoint=deepinfra.endpoint).pk)
    assert (now.input_per_m, now.output_per_m, now.source) == (Decimal("0.14"), Decimal("0.42"), litellm)
    # The reader sees the new price, cited to LiteLLM.
    article = client.get("/en/fastest-llm-api/").content.decode()
    assert "$0.14 / $0.42" in article and "$0.20 / $0.60" not in article
    assert "LiteLLM" in article
    # The keys of the demo's hosts nobody mapped are listed for editors, ours first.
    assert run.unmapped_rows == UnmappedUpstreamRow.objects.filter(upstream="litellm").count() > 100
    first = UnmappedUpstreamRow.objects.first()
    assert first.provider is not None and first.model is not None

    # Again: nothing new, nothing written.
    again = run_readme_command(django_capture_on_commit_callbacks)
    assert "status: Unchanged" in again
    assert RefreshRun.objects.filter(source=litellm).latest("pk").snapshot is None


def test_the_demo_lists_its_refreshable_source(demo_site):
    out = io.StringIO()
    with pytest.raises(Exception) as error:
        call_command("refresh", "no such source", stdout=out)
    assert "Known: " in str(error.value) and "LiteLLM · model price list" in str(error.value)
