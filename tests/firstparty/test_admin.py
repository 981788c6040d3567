"""Admin: key and budget status, starting a run, uploading records, provenance down to the records."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from firstparty.aggregation import aggregate_run
from firstparty.models import RequestRecord, Run
from tests.firstparty_support import KEY_ENV, first_party_source, make_config, make_endpoint

pytestmark = pytest.mark.django_db


def test_probe_settings_list_says_key_missing_and_budget_reached(editor_client, fake_provider, monkeypatch):
    monkeypatch.delenv(KEY_ENV, raising=False)
    config = make_config(fake_provider.base_url, daily_budget=1)
    text = editor_client.get(reverse("probe_settings:index")).content.decode()
    assert f"{KEY_ENV} is not set on this server: no request will be sent" in text
    assert "0 of 1 requests today" in text
    monkeypatch.setenv(KEY_ENV, "sk-x")
    from firstparty.tasks import probe_endpoint

    probe_endpoint.delay(config.pk).get()
    text = editor_client.get(reverse("probe_settings:index")).content.decode()
    assert "Budget reached (1 of 1 today): probing stopped until tomorrow" in text
    assert f"{KEY_ENV} is set" in text and "sk-x" not in text


def test_start_run_without_key_is_a_clear_error_and_sends_nothing(editor_client, fake_provider, monkeypatch):
    monkeypatch.delenv(KEY_ENV, raising=False)
    config = make_config(fake_provider.base_url)
    run = Run.objects.create(name="r", source=first_party_source("r"), requests_per_endpoint=2)
    run.endpoints.set([config.endpoint])
    response = editor_client.post(reverse("firstparty_actions:start", args=[run.pk]))
    text = response.content.decode()
    assert response.status_code == 200
    assert "The run was not started and no request was sent" in text and KEY_ENV in text
    run.refresh_from_db()
    assert run.status == "draft" and fake_provider.requests == [] and not RequestRecord.objects.exists()


def test_start_run_from_admin_records_and_shows_progress(editor_client, fake_provider, api_key):
    config = make_config(fake_provider.base_url)
    run = Run.objects.create(name="r", source=first_party_source("r2"), requests_per_endpoint=2)
    run.endpoints.set([config.endpoint])
    response = editor_client.post(reverse("firstparty_actions:start", args=[run.pk]), follow=True)
    text = response.content.decode()
    assert "2 of 2 requests recorded (100%)" in text
    run.refresh_from_db()
    assert run.status == "aggregated" and len(fake_provider.requests) == 2
    assert "Request records behind the snapshot" in text


def test_upload_rejects_bad_file_whole_and_accepts_good_one(editor_client, django_capture_on_commit_callbacks):
    """The upload goes on to its progress page; the import (here run eagerly when the row commits) says
    what it found there. tests/test_uploads.py and test_upload_worker.py follow the whole flow."""
    make_endpoint("acme")
    run = Run.objects.create(name="upload", source=first_party_source("u"))
    good = {"provider": "acme", "model": "glm-5-3-flash", "started_at": "2026-09-03T09:00:00Z",
            "outcome": "success", "ttft_s": 0.5, "e2e_s": 1.5, "output_tokens": 11, "token_count": "usage"}
    bad = "\n".join([json.dumps(good), json.dumps({**good, "outcome": "maybe"})])
    url = reverse("firstparty_actions:upload", args=[run.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = editor_client.post(url, {"file": SimpleUploadedFile("r.jsonl", bad.encode())})
    assert response.status_code == 302
    assert "row 2: column outcome" in editor_client.get(response["Location"]).text
    assert not RequestRecord.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = editor_client.post(url, {"file": SimpleUploadedFile("r.jsonl", json.dumps(good).encode()),
                                            "aggregate": "on"})
    response = editor_client.get(response["Location"])
    assert "1 records imported from r.jsonl" in response.text
    run.refresh_from_db()
    assert run.snapshot is not None and run.files.get().rows == 1
    assert f"The run was aggregated into snapshot #{run.snapshot.pk} (published)." in response.text


def test_snapshot_provenance_leads_to_records_and_csv(editor_client):
    endpoint = make_endpoint("acme")
    run = Run.objects.create(name="prov", source=first_party_source("p"))
    from tests.firstparty.test_aggregation import make_records

    make_records(endpoint, run, count=12)
    snapshot = aggregate_run(run)
    listing = editor_client.get(reverse("wagtailsnippets_benchmarks_snapshot:list")).content.decode()
    assert reverse("firstparty_actions:provenance", args=[snapshot.pk]) in listing
    page = editor_client.get(reverse("firstparty_actions:provenance", args=[snapshot.pk])).content.decode()
    assert "12 request records, sent from 2026-09-03 09:00 to 2026-09-03 09:11" in page
    csv_response = editor_client.get(reverse("firstparty_actions:records_csv", args=[snapshot.pk]))
    lines = b"".join(csv_response.streaming_content).decode().splitlines()
    assert lines[0].startswith("provider,model,tier,started_at") and len(lines) == 13
