"""A run whose worker cannot go on stops visibly and can be resumed; a running run's progress page moves by itself."""

import pytest
from django.urls import reverse

from firstparty.models import Run
from firstparty.scheduling import start_run
from firstparty.tasks import run_endpoint_batch
from tests.firstparty_support import KEY_ENV, first_party_source, make_config

pytestmark = pytest.mark.django_db


def started_run(fake_provider, requests=2):
    config = make_config(fake_provider.base_url)
    run = Run.objects.create(name="stops", source=first_party_source("stops"), requests_per_endpoint=requests)
    run.endpoints.set([config.endpoint])
    return run, start_run(run)  # the web process has the key: the start is accepted


def test_a_worker_without_the_key_stops_the_run_and_says_why(editor_client, fake_provider, api_key, monkeypatch):
    run, endpoint_ids = started_run(fake_provider)
    monkeypatch.delenv(KEY_ENV)  # the worker that picks the batch up has no key
    run_endpoint_batch.delay(run.pk, endpoint_ids[0]).get()
    run.refresh_from_db()
    assert run.status == "stopped" and fake_provider.requests == []
    assert KEY_ENV in run.problem_text() and api_key not in str(run.problem)
    page = editor_client.get(reverse("firstparty_actions:progress", args=[run.pk])).content.decode()
    assert "Stopped: needs attention" in page and KEY_ENV in page and "Resume the run" in page
    assert 'data-refresh-seconds="0"' in page  # a stopped run does not keep reloading


def test_resuming_needs_the_key_then_finishes_the_run(editor_client, fake_provider, api_key, monkeypatch):
    run, endpoint_ids = started_run(fake_provider)
    monkeypatch.delenv(KEY_ENV)
    run_endpoint_batch.delay(run.pk, endpoint_ids[0]).get()
    url = reverse("firstparty_actions:progress", args=[run.pk])
    refused = editor_client.post(url).content.decode()
    assert "is not set on this server either" in refused
    run.refresh_from_db()
    assert run.status == "stopped"
    monkeypatch.setenv(KEY_ENV, api_key)
    page = editor_client.post(url, follow=True).content.decode()
    run.refresh_from_db()
    assert run.status == "aggregated" and run.problem == {} and run.records.count() == 2
    assert "resumed" in page and "2 of 2 requests recorded (100%)" in page


def test_a_running_run_page_reloads_itself(editor_client, fake_provider, api_key):
    run, _ids = started_run(fake_provider)
    page = editor_client.get(reverse("firstparty_actions:progress", args=[run.pk])).content.decode()
    assert 'data-refresh-seconds="5"' in page and "firstparty/js/run_progress" in page
    assert "reloads every 5 seconds" in page


def test_progress_page_in_spanish(editor_client, django_user_model, fake_provider, api_key, monkeypatch):
    from wagtail.users.models import UserProfile

    run, endpoint_ids = started_run(fake_provider)
    monkeypatch.delenv(KEY_ENV)
    run_endpoint_batch.delay(run.pk, endpoint_ids[0]).get()
    profile = UserProfile.get_for_user(django_user_model.objects.get(username="editor"))
    profile.preferred_language = "es"
    profile.save()
    page = editor_client.get(reverse("firstparty_actions:progress", args=[run.pk])).content.decode()
    assert "Reanudar la medición" in page and "Detenida: requiere atención" in page
    assert "Resume the run" not in page and "has no environment variable" not in page
    assert f"no tiene la variable de entorno {KEY_ENV}" in page
