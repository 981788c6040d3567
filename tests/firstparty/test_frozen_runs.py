"""What a page says about a run is what was run (issue 23): the Methodology lines come from the frozen
configuration, a started or imported run cannot be edited, progress counts what was planned."""

import json

import pytest
from django.template import Context, Template
from django.urls import reverse

from firstparty.aggregation import aggregate_run
from firstparty.importers import import_records
from firstparty.models import RequestRecord, Run
from firstparty.tasks import run_endpoint_batch
from tests.fake_openai import Scenario
from tests.firstparty.test_methodology import cited_run  # noqa: F401 (fixture)
from tests.firstparty_support import first_party_source, make_config, make_endpoint
from tests.test_blocks import render

pytestmark = pytest.mark.django_db


def methodology(source, language="en"):
    raw = {"heading": "Method", "text": "<p>How.</p>", "citations": [source.pk]}
    html, _text, _data = render("methodology", raw, page_sources=[source], language=language)
    return html


def records_file(endpoints, per_endpoint, token_count="usage"):
    rows = []
    for endpoint in endpoints:
        for i in range(per_endpoint):
            rows.append({"provider": endpoint.provider.slug, "model": endpoint.model.slug, "tier": endpoint.tier,
                         "started_at": f"2026-09-03T09:{i:02d}:00Z", "outcome": "success", "ttft_s": 0.5,
                         "e2e_s": 1.5, "output_tokens": 11, "token_count": token_count})
    return "\n".join(json.dumps(row) for row in rows)


def edit_post(run, **changes):
    data = {"name": run.name, "source": run.source_id, "endpoints": [e.pk for e in run.endpoints.all()],
            "requests_per_endpoint": run.requests_per_endpoint, "workload": run.workload, "effort": run.effort,
            "tokenizer": run.tokenizer, "measured_at": ""}
    return {**data, **changes}


def test_methodology_lines_ignore_the_runs_editable_fields(cited_run):  # noqa: F811
    before = methodology(cited_run.source)
    # what an edit after the run used to do: change the fields the lines were read from
    Run.objects.filter(pk=cited_run.pk).update(requests_per_endpoint=5, tokenizer="edited afterwards")
    after = methodology(cited_run.source)
    assert after == before
    assert "1,200" in after and "tiktoken o200k_base" in after and "edited afterwards" not in after


def test_a_started_run_is_read_only_in_the_admin_and_pages_do_not_change(editor_client, cited_run):  # noqa: F811
    published = methodology(cited_run.source)
    url = reverse("measurement_runs:edit", args=[cited_run.pk])

    page = editor_client.get(url).content.decode()
    assert "its settings are frozen" in page and 'id="run-frozen"' in page
    assert "tiktoken o200k_base" in page  # the frozen settings are shown ...
    assert 'name="tokenizer"' in page and "disabled" in page  # ... and the fields cannot be changed
    assert 'type="submit"' not in page.split('id="w-editor-form"')[1]  # no Save button

    response = editor_client.post(url, edit_post(cited_run, tokenizer="typed later", requests_per_endpoint=9),
                                  follow=True)
    assert "its settings are frozen" in response.content.decode()
    cited_run.refresh_from_db()
    assert cited_run.tokenizer == "tiktoken o200k_base" and cited_run.requests_per_endpoint == 1200
    assert methodology(cited_run.source) == published


def test_a_draft_run_can_still_be_edited(editor_client):
    run = Run.objects.create(name="draft", source=first_party_source("draft"), requests_per_endpoint=10)
    url = reverse("measurement_runs:edit", args=[run.pk])
    assert "its settings are frozen" not in editor_client.get(url).content.decode()
    editor_client.post(url, edit_post(run, requests_per_endpoint=20))
    run.refresh_from_db()
    assert run.requests_per_endpoint == 20


def test_a_batch_sends_the_frozen_number_of_requests(fake_provider, api_key):
    fake_provider.scenario = Scenario(first_token_delay=0.01, token_interval=0.001, tokens=4)
    config = make_config(fake_provider.base_url)
    run = Run.objects.create(name="frozen", source=first_party_source("frozen"), requests_per_endpoint=2)
    run.endpoints.set([config.endpoint])
    from firstparty.scheduling import start_run

    start_run(run)
    Run.objects.filter(pk=run.pk).update(requests_per_endpoint=5)  # not through the admin: it refuses
    run_endpoint_batch.delay(run.pk, config.endpoint_id).get()
    assert RequestRecord.objects.filter(run=run).count() == 2 == len(fake_provider.requests)
    run.refresh_from_db()
    assert run.snapshot.sample_size == 2


@pytest.fixture
def imported_run():
    """Three endpoints, two of one provider and tier (different models), 4 records each, never started."""
    endpoints = [make_endpoint("acme", "glm-5-3-flash"), make_endpoint("acme", "kimi-k3"),
                 make_endpoint("zeta", "glm-5-3-flash", tier="Fast")]
    run = Run.objects.create(name="imported", source=first_party_source("imported"), requests_per_endpoint=4)
    import_records(run, records_file(endpoints, 4), "runner.jsonl")
    run.refresh_from_db()
    return run, endpoints


def test_methodology_of_an_imported_never_started_run(imported_run):
    run, _endpoints = imported_run
    aggregate_run(run)
    html = methodology(run.source)
    assert "<dl></dl>" not in html
    for part in ("Recorded settings of the run (imported)", "Records",
                 "per-request records of an external runner, imported from 1 file", "Requests per endpoint",
                 "<dd>4</dd>", "Token counting", "provider-reported usage", "Measured"):
        assert part in html, part
    # lines that only a started run has are not invented
    assert "Temperature" not in html and "Timeout" not in html
    spanish = methodology(run.source, "es")
    for part in ("Parámetros registrados de la medición (<span lang=\"en\">imported</span>)", "Registros", "importados de 1 archivo",
                 "Peticiones por endpoint", "Recuento de tokens", "uso informado por el proveedor"):
        assert part in spanish, part
    assert "Records" not in spanish and "imported from" not in spanish


def test_a_run_with_nothing_recorded_gets_no_section(imported_run):
    run, _endpoints = imported_run
    aggregate_run(run)
    Run.objects.filter(pk=run.pk).update(config={})  # aggregated before configurations were frozen
    html = methodology(run.source)
    assert "Recorded settings" not in html and "<dl></dl>" not in html


def test_the_methodology_reads_every_cited_run_in_one_query(cited_run, django_assert_num_queries):  # noqa: F811
    second = Run.objects.create(name="second", source=cited_run.source, requests_per_endpoint=3,
                                config=cited_run.config, status=Run.Status.FINISHED)
    from tests.firstparty.test_aggregation import make_records

    make_records(make_endpoint("acme"), second, count=3)
    aggregate_run(second)
    template = Template("{% load firstparty_tags %}{% run_parameters sources %}")
    with django_assert_num_queries(1):
        html = template.render(Context({"sources": [cited_run.source]}))
    assert html.count("Recorded settings of the run (cited)") == 2
