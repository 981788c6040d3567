"""What editors see of refreshes in the Wagtail admin: runs, mapping, unmapped rows, "Refresh now", the dashboard."""

import json

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from benchmarks.ingest.refresh import run_refresh
from benchmarks.models import RefreshRun, UnmappedUpstreamRow, UpstreamMapping

from .refresh_support import (
    AA_GLM_PROVIDERS,
    AA_GPT_OSS_ID,
    Reply,
    example_json,
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
    world_fixture,  # noqa: F401  (the world fixture)
)

pytestmark = pytest.mark.django_db


def page_text(response):
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_refresh_now_runs_the_task_and_the_run_page_shows_the_outcome(
    world, fake_upstream, editor_client, django_capture_on_commit_callbacks
):
    url = reverse("benchmarks_refresh:now", args=[world.aa_providers.pk])
    assert "Refresh now" in page_text(editor_client.get(url))

    # Tests run Celery eagerly: the task runs when the request's transaction commits.
    with django_capture_on_commit_callbacks(execute=True):
        response = editor_client.post(url)

    run = RefreshRun.objects.get(source=world.aa_providers)
    assert response.status_code == 302 and response.url == reverse("benchmarks_refresh:run", args=[run.pk])
    assert run.trigger == RefreshRun.Trigger.MANUAL and run.requested_by.username == "editor"
    status = json.loads(editor_client.get(reverse("benchmarks_refresh:status", args=[run.pk])).content)
    assert status["finished"] and status["status"] == "changed" and status["status_label"] == "New snapshot"
    assert status["rows_read"] == 7 and status["snapshot"] == run.snapshot_id
    text = page_text(editor_client.get(response.url))
    assert "New snapshot" in text and "283.4" in text and "Baseten (Fast) · GLM-5.3" in text
    assert 'data-finished="true"' in text


def test_a_queued_run_reports_progress_until_a_worker_takes_it(world, editor_client):
    run = RefreshRun.objects.create(
        source=world.openrouter, adapter="openrouter", progress="Waiting for a worker"
    )

    status = json.loads(editor_client.get(reverse("benchmarks_refresh:status", args=[run.pk])).content)
    text = page_text(editor_client.get(reverse("benchmarks_refresh:run", args=[run.pk])))

    assert (status["finished"], status["status_label"], status["progress"]) == (
        False,
        "Queued",
        "Waiting for a worker",
    )
    assert 'data-finished="false"' in text and "Waiting for a worker" in text


def test_a_failed_run_page_says_why_and_that_nothing_was_written(world, fake_upstream, editor_client):
    fake_upstream.set(AA_GLM_PROVIDERS, Reply(500, "down"))
    run = run_refresh(world.aa_providers.pk)

    text = page_text(editor_client.get(reverse("benchmarks_refresh:run", args=[run.pk])))

    assert "HTTP 500 (server error); gave up after 2 attempts" in text
    assert "Nothing was written: the published data and the pages are unchanged." in text


def test_refresh_now_needs_permission(world, client, django_user_model):
    user = django_user_model.objects.create_user("viewer", password="pw-viewer-123")
    user.user_permissions.add(
        Permission.objects.get(codename="access_admin"), Permission.objects.get(codename="view_refreshrun")
    )
    client.force_login(user)

    response = client.post(reverse("benchmarks_refresh:now", args=[world.aa_providers.pk]))

    # Wagtail turns PermissionDenied into a redirect to the dashboard with an error message.
    assert (response.status_code, response.url) == (302, reverse("wagtailadmin_home"))
    assert not RefreshRun.objects.exists()
    assert client.get(reverse("refresh_runs:index")).status_code == 200


def test_runs_listing_filters_by_source_and_status(world, fake_upstream, editor_client):
    changed = reverse("benchmarks_refresh:run", args=[run_refresh(world.openrouter.pk).pk])
    fake_upstream.set(AA_GLM_PROVIDERS, Reply(500, "down"))
    failed = reverse("benchmarks_refresh:run", args=[run_refresh(world.aa_providers.pk).pk])
    index = reverse("refresh_runs:index")

    everything = page_text(editor_client.get(index))
    only_failed = page_text(editor_client.get(index, {"status": "failed"}))
    only_openrouter = page_text(editor_client.get(index, {"source": world.openrouter.pk}))

    assert changed in everything and failed in everything
    assert failed in only_failed and changed not in only_failed
    assert "HTTP 500 (server error)" in only_failed
    assert changed in only_openrouter and failed not in only_openrouter


def test_runs_cannot_be_edited_or_added(world, fake_upstream, editor_client):
    run = run_refresh(world.openrouter.pk)

    for url in (reverse("refresh_runs:edit", args=[run.pk]), reverse("refresh_runs:add")):
        response = editor_client.get(url)
        assert (response.status_code, response.url) == (302, reverse("wagtailadmin_home"))
    assert reverse("refresh_runs:add") not in page_text(editor_client.get(reverse("refresh_runs:index")))


def test_runs_listing_queries_do_not_grow_with_the_number_of_runs(world, editor_client):
    def queries(count):
        for _ in range(count):
            RefreshRun.objects.create(
                source=world.openrouter, adapter="openrouter", status="failed", error="x"
            )
        with CaptureQueriesContext(connection) as ctx:
            page_text(editor_client.get(reverse("refresh_runs:index")))
        return len(ctx.captured_queries)

    assert queries(3) == queries(30)


def test_mapping_table_search(world, editor_client):
    index = reverse("wagtailsnippets_benchmarks_upstreammapping:list")

    text = page_text(editor_client.get(index, {"q": "gpt-oss"}))

    assert "groq/openai/gpt-oss-120b" in text and "cerebras/gpt-oss-120b" in text
    assert "together_ai/zai-org/GLM-5.3" not in text


def test_unmapped_rows_are_listed_with_a_prefilled_map_link_and_mapping_clears_them(
    world, fake_upstream, editor_client
):
    run_refresh(world.aa_free.pk)
    text = page_text(editor_client.get(reverse("refresh_unmapped:index")))
    assert "Kimi K3" in text and "no mapping for this identifier" in text
    assert "which has no standard-tier endpoint" in text

    add = reverse("wagtailsnippets_benchmarks_upstreammapping:add")
    row = UnmappedUpstreamRow.objects.get(upstream_name="Kimi K3")
    form = page_text(
        editor_client.get(
            add, {"upstream": row.upstream, "upstream_id": row.upstream_id, "upstream_name": "Kimi K3"}
        )
    )
    assert f'value="{row.upstream_id}"' in form

    response = editor_client.post(
        add,
        {
            "upstream": row.upstream,
            "upstream_id": row.upstream_id,
            "upstream_name": "Kimi K3",
            "ignored": "on",
            "note": "",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    run_refresh(world.aa_free.pk)
    assert list(UnmappedUpstreamRow.objects.values_list("upstream_id", flat=True)) == [AA_GPT_OSS_ID]


def test_a_mapping_must_say_what_it_maps_to(world, editor_client):
    add = reverse("wagtailsnippets_benchmarks_upstreammapping:add")

    response = editor_client.post(
        add, {"upstream": "openrouter", "upstream_id": "z-ai/glm-5.3|chutes/fp8", "note": ""}
    )

    assert response.status_code == 200
    assert (
        "Choose the endpoint this row describes (or a provider and a model), or mark it ignored."
        in response.content.decode()
    )
    assert not UpstreamMapping.objects.filter(upstream_id="z-ai/glm-5.3|chutes/fp8").exists()


def test_refresh_settings_list_shows_schedule_and_last_run_and_rejects_bad_parameters(
    world, fake_upstream, editor_client
):
    run_refresh(world.openrouter.pk)
    text = page_text(editor_client.get(reverse("refresh_settings:index")))
    assert "every 180 min" in text and "New snapshot ·" in text and "never run" in text
    assert reverse("benchmarks_refresh:now", args=[world.openrouter.pk]) in text

    config = world.openrouter.refresh_config
    response = editor_client.post(
        reverse("refresh_settings:edit", args=[config.pk]),
        {
            "source": world.openrouter.pk,
            "adapter": "openrouter",
            "params": '{"models": ["glm-5.3"]}',
            "enabled": "on",
            "interval_minutes": "60",
            "max_price_jump_factor": "3",
            "workload": "",
            "effort": "",
        },
    )
    assert response.status_code == 200
    assert "Model ids look like “author/slug”: glm-5.3." in response.content.decode()


# --- dashboard ---------------------------------------------------------------------------------
def article_with_table(home, title, slug, model):
    from articles.models import ArticlePage

    table = {
        "model": model.pk,
        "source": None,
        "sort_metric": "output_speed_median",
        "name_style": "short",
        "show_api_model": False,
        "cite_sources": False,
        "caption": "",
        "columns": [{"field": "output_speed_median", "difference_to_leader": False}],
    }
    page = ArticlePage(title=title, slug=slug, body=[{"type": "provider_table", "value": table}])
    home.add_child(instance=page)
    page.save_revision().publish()
    return page


def test_dashboard_lists_changed_figures_and_the_articles_that_show_them(world, fake_upstream, editor_client):
    from articles.demo import ensure_home_page

    home = ensure_home_page()
    article_with_table(home, "Fastest GLM-5.3 hosts", "glm-hosts", world.models["GLM-5.3"])
    article_with_table(home, "GPT-OSS baseline", "gpt-oss", world.models["GPT-OSS 120B"])
    run_refresh(world.aa_providers.pk)

    text = page_text(editor_client.get(reverse("wagtailadmin_home")))

    panel = text[text.index('id="data-changed-section"') :]
    assert "Data changed" in text and "GLM-5.3 providers" in panel
    assert "Baseten (Fast) · GLM-5.3" in panel and "283.4" in panel
    assert "Fastest GLM-5.3 hosts" in panel and "GPT-OSS baseline" not in panel
    assert "and 16 more figures" in panel


def test_dashboard_says_when_refreshes_failed(world, fake_upstream, editor_client):
    body = example_json("synthetic_aa_language_model_glm-5-3_commercial.json")
    body["data"]["providers"][0]["performance"]["median_output_tokens_per_second"] = -1
    fake_upstream.set(AA_GLM_PROVIDERS, json.dumps(body))
    run_refresh(world.aa_providers.pk)

    text = page_text(editor_client.get(reverse("wagtailadmin_home")))

    assert "1 refresh failed in the last 24 hours." in text


def test_dashboard_panel_queries_do_not_grow_with_runs(world, editor_client):
    def queries(count):
        for _ in range(count):
            RefreshRun.objects.create(
                source=world.openrouter,
                adapter="openrouter",
                status="changed",
                finished=timezone.now(),
                changes=[
                    {
                        "endpoint": world.glm["Together AI"].pk,
                        "model": world.models["GLM-5.3"].pk,
                        "label": "Together AI · GLM-5.3",
                        "what": "price",
                        "old": None,
                        "new": "1.4 / 4.4 USD",
                    }
                ],
            )
        with CaptureQueriesContext(connection) as ctx:
            page_text(editor_client.get(reverse("wagtailadmin_home")))
        return len(ctx.captured_queries)

    assert queries(2) == queries(20)


def test_the_article_lookup_reads_both_languages(world):
    from articles.demo import ensure_home_page
    from articles.models import ArticlePage
    from benchmarks.ingest.affected_pages import articles_showing

    home = ensure_home_page()
    table = {
        "model": world.models["GLM-5.3-Flash"].pk,
        "source": world.litellm.pk,
        "sort_metric": "output_speed_median",
        "name_style": "short",
        "show_api_model": False,
        "cite_sources": False,
        "caption": "",
        "columns": [],
    }
    page = ArticlePage(title="Flash", slug="flash", body_es=[{"type": "provider_table", "value": table}])
    home.add_child(instance=page)

    assert [(p.pk, langs) for p, langs in articles_showing({world.models["GLM-5.3-Flash"].pk}, [])] == [
        (page.pk, ["es"])
    ]
    assert [p.pk for p, _ in articles_showing(set(), [world.litellm.pk])] == [page.pk]
    assert articles_showing({world.models["GLM-5.3"].pk}, [world.openrouter.pk]) == []


def test_refresh_now_with_an_unreachable_broker_records_a_failed_run(
    world, editor_client, monkeypatch, django_capture_on_commit_callbacks
):
    from kombu.exceptions import OperationalError

    from benchmarks.ingest.tasks import refresh_openrouter

    def unreachable(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")

    monkeypatch.setattr(refresh_openrouter, "apply_async", unreachable)

    with django_capture_on_commit_callbacks(execute=True):
        editor_client.post(reverse("benchmarks_refresh:now", args=[world.openrouter.pk]))

    run = RefreshRun.objects.get(source=world.openrouter)
    assert run.status == RefreshRun.Status.FAILED
    assert run.error.startswith("could not reach the task queue (OperationalError)")
