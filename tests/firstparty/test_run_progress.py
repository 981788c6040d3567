"""Run progress: against the frozen plan for a started run, a plain count for imported records, one row
per endpoint (provider, model and tier) (issue 23)."""

import pytest
from django.urls import reverse

from firstparty.models import Run
from firstparty.tasks import run_endpoint_batch
from tests.fake_openai import Scenario
from tests.firstparty.test_frozen_runs import imported_run  # noqa: F401 (fixture)
from tests.firstparty_support import first_party_source, make_config, make_endpoint

pytestmark = pytest.mark.django_db


def test_progress_of_an_imported_run_counts_records_per_endpoint(editor_client, imported_run):  # noqa: F811
    run, endpoints = imported_run
    text = editor_client.get(reverse("firstparty_actions:progress", args=[run.pk])).content.decode()
    assert "12 requests recorded." in text and "no planned number" in text
    progress = text.split('id="run-progress"')[1].split("</table>")[0]
    assert "%" not in progress and "<progress" not in progress  # no percentage of a plan it never had
    assert "12 of 4" not in text and "(300%)" not in text
    for endpoint in endpoints:  # one row per endpoint: provider, tier and model
        assert f"<td>{endpoint}</td><td>4</td>" in text
    listing = editor_client.get(reverse("measurement_runs:index")).content.decode()
    assert "12 / 4" not in listing


def test_progress_of_a_started_run_is_per_endpoint_against_the_frozen_plan(editor_client, fake_provider, api_key):
    fake_provider.scenario = Scenario(first_token_delay=0.01, token_interval=0.001, tokens=4)
    first, second = make_config(fake_provider.base_url), make_config(
        fake_provider.base_url, endpoint=make_endpoint("acme", "kimi-k3"))
    run = Run.objects.create(name="two", source=first_party_source("two"), requests_per_endpoint=3)
    run.endpoints.set([first.endpoint, second.endpoint])
    from firstparty.scheduling import start_run

    start_run(run)
    run_endpoint_batch.delay(run.pk, first.endpoint_id).get()
    text = editor_client.get(reverse("firstparty_actions:progress", args=[run.pk])).content.decode()
    assert "3 of 6 requests recorded (50%)." in text
    assert f"<td>{first.endpoint}</td><td>3 of 3</td>" in text
    assert f"<td>{second.endpoint}</td><td>0 of 3</td>" in text
