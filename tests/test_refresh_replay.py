"""A refresh replayed from saved upstream answers (`manage.py refresh SOURCE --from-file …` and the admin's
"Replay from file") runs the whole pipeline — paging, checks, mapping, snapshot, review — with no network
and no key (issue 26: "A newcomer can try it")."""

import gzip
import io
import json
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from benchmarks.ingest.adapters.base import join_pages
from benchmarks.ingest.adapters.http_client import FetchedDocument
from benchmarks.models import Price, RefreshConfig, RefreshRun, Snapshot
from benchmarks.upload_models import uploads_storage

from .refresh_support import EXAMPLES, published_state, values_of, world_fixture  # noqa: F401

pytestmark = pytest.mark.django_db
PAGE_1 = EXAMPLES / "synthetic_aa_language_models_free_page1.json"
PAGE_2 = EXAMPLES / "synthetic_aa_language_models_free_page2.json"


@pytest.fixture(autouse=True)
def offline(settings, monkeypatch):
    """No upstream anywhere and no key: a request would fail the run."""
    settings.ARTIFICIAL_ANALYSIS_BASE_URL = "http://127.0.0.1:9/api/v2"
    settings.OPENROUTER_BASE_URL = "http://127.0.0.1:9/api/v1"
    settings.LITELLM_PRICES_URL = "http://127.0.0.1:9/prices.json"
    settings.REFRESH_HTTP_ATTEMPTS = 1
    monkeypatch.delenv("ARTIFICIAL_ANALYSIS_API_KEY", raising=False)


def refresh(*args):
    out = io.StringIO()
    try:
        call_command("refresh", *map(str, args), stdout=out)
    except CommandError as exc:
        return out.getvalue(), exc
    return out.getvalue(), None


def latest_run(source):
    return RefreshRun.objects.filter(source=source).latest("pk")


def test_a_paged_list_replayed_file_by_file_is_a_whole_refresh(world):
    text, error = refresh(world.aa_free.pk, "--from-file", PAGE_1, PAGE_2)

    assert error is None, text
    run = latest_run(world.aa_free)
    assert (run.status, run.trigger) == (RefreshRun.Status.CHANGED, RefreshRun.Trigger.REPLAY)
    assert run.snapshot.status == Snapshot.Status.PUBLISHED
    assert values_of(run.snapshot)[(world.deepseek_first_party.pk, "output_speed_median")] == Decimal("169.0")
    assert run.snapshot.raw_payload == '{"pages": [' + PAGE_1.read_text() + ",\n" + PAGE_2.read_text() + "]}"
    assert (run.rows_read, run.unmapped_rows) == (5, 2)
    assert "Replayed from saved files (synthetic_aa_language_models_free_page1.json, " in run.notes
    assert "status: New snapshot" in text and "rows read: 5" in text and "no upstream request was sent" in text
    # What a replay cannot know is left alone: the upstream's ETags, request budget and page count.
    config = RefreshConfig.objects.get(source=world.aa_free)
    assert config.http_validators == {} and config.rate_limit == {}


def test_one_file_holding_a_snapshots_pages_replays_as_those_pages(world, tmp_path):
    refresh(world.aa_free.pk, "--from-file", PAGE_1, PAGE_2)
    saved = tmp_path / "snapshot.json"
    saved.write_text(Snapshot.objects.filter(source=world.aa_free).latest("pk").raw_payload)

    text, error = refresh(world.aa_free.pk, "--from-file", saved)

    assert error is None, text
    run = latest_run(world.aa_free)
    assert run.status == RefreshRun.Status.UNCHANGED and run.rows_read == 5  # the same figures, page by page


def test_a_gzipped_price_list_replays_decompressed(world, tmp_path):
    body = (EXAMPLES / "synthetic_litellm_model_prices_and_context_window.json").read_bytes()
    packed = tmp_path / "prices.json.gz"
    packed.write_bytes(gzip.compress(body))

    text, error = refresh("LiteLLM", "--from-file", packed)

    assert error is None, text
    groq = Price.objects.current().get(endpoint=world.gpt_oss["Groq"])
    assert (groq.source, groq.input_per_m) == (world.litellm, Decimal("0.15"))


def test_a_saved_legacy_file_replays_without_its_configured_path(world, tmp_path):
    source = world.aa_providers
    RefreshConfig.objects.filter(source=source).update(
        adapter="artificial_analysis_legacy_file", params={"path": "not-here.json", "include": ["glm-5-3"]}
    )

    text, error = refresh(source.pk, "--from-file", EXAMPLES / "synthetic_aa_data_llms_models.json")

    assert error is None, text
    run = latest_run(source)
    assert run.status == RefreshRun.Status.CHANGED
    assert values_of(run.snapshot) == {(world.glm["Z.ai"].pk, "output_speed_median"): Decimal("98.2"),
                                       (world.glm["Z.ai"].pk, "ttfc_median"): Decimal("2.39")}


@pytest.mark.parametrize(
    "files, reason",
    [
        ([PAGE_1], "the refresh asked for document 2, but the files given hold only 1"),
        ([PAGE_1, PAGE_2, PAGE_2], "left 1 of the given documents unread (synthetic_aa_language_models_free_page2"),
    ],
)
def test_too_few_or_too_many_files_fail_the_run_and_write_nothing(world, files, reason):
    state = published_state()

    text, error = refresh(world.aa_free.pk, "--from-file", *files)

    assert error is not None and "failure reason:" in text and reason in text
    run = latest_run(world.aa_free)
    assert run.status == RefreshRun.Status.FAILED and reason in run.error
    assert published_state() == state


def test_a_dry_run_replay_keeps_nothing(world):
    state, runs = published_state(), RefreshRun.objects.count()

    text, error = refresh(world.aa_free.pk, "--dry-run", "--from-file", PAGE_1, PAGE_2)

    assert error is None and "dry run, nothing was kept" in text and "status: New snapshot" in text
    assert published_state() == state and RefreshRun.objects.count() == runs


def test_a_missing_file_is_a_command_error(world, tmp_path):
    text, error = refresh(world.aa_free.pk, "--from-file", tmp_path / "nowhere.json")
    assert error is not None and "nowhere.json: cannot be read" in str(error)


def test_the_admin_replays_uploaded_files_through_a_task_and_deletes_them(
    world, editor_client, django_capture_on_commit_callbacks
):
    url = reverse("benchmarks_refresh_replay:replay", args=[world.aa_free.pk])
    page = editor_client.get(url).content.decode()
    assert "Replay from file" in page and 'type="file"' in page and "multiple" in page

    files = [
        # Chosen in any order: replayed in the order of their names.
        SimpleUploadedFile("page2.json", PAGE_2.read_bytes(), content_type="application/json"),
        SimpleUploadedFile("page1.json", PAGE_1.read_bytes(), content_type="application/json"),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        response = editor_client.post(url, {"files": files})

    assert response.status_code == 302
    run = latest_run(world.aa_free)
    assert response["Location"] == reverse("benchmarks_refresh:run", args=[run.pk])
    assert (run.status, run.trigger, run.requested_by.username) == (
        RefreshRun.Status.CHANGED, RefreshRun.Trigger.REPLAY, "editor"
    )
    assert "Replayed from saved files (page1.json, page2.json)" in run.notes
    assert run.payload_files == [] and not uploads_storage().exists(f"refresh-replay/{run.pk}/01-page1.json")
    detail = editor_client.get(response["Location"]).content.decode()
    assert "Replay from file" in detail and f"Snapshot #{run.snapshot_id} published" in detail


def test_the_admin_refuses_a_file_larger_than_a_refresh_reads(world, editor_client, settings):
    settings.REFRESH_MAX_BODY_BYTES = 100
    url = reverse("benchmarks_refresh_replay:replay", args=[world.aa_free.pk])

    response = editor_client.post(url, {"files": [SimpleUploadedFile("big.json", b"{}" * 100)]})

    assert response.status_code == 200 and "Larger than the 100" in response.content.decode()
    assert not RefreshRun.objects.filter(source=world.aa_free).exists()


def test_a_snapshot_payload_splits_back_into_its_pages_verbatim():
    from benchmarks.ingest.adapters.replay import split_pages

    pages = [PAGE_1.read_text().strip(), '{"data": [], "note": "a ] and a , inside"}']
    joined = join_pages([FetchedDocument(url="", status=200, text=text) for text in pages])
    assert split_pages(joined) == pages
    assert split_pages(json.dumps({"pages": 3})) is None and split_pages('{"data": {"pages": []}}') is None


def test_the_sweep_deletes_the_files_of_a_replay_no_worker_started(world, editor_client, settings):
    import datetime

    from django.utils import timezone

    from benchmarks.ingest.scheduling import fail_stuck_runs

    url = reverse("benchmarks_refresh_replay:replay", args=[world.aa_free.pk])
    editor_client.post(url, {"files": [SimpleUploadedFile("page1.json", PAGE_1.read_bytes())]})  # never committed
    run = latest_run(world.aa_free)
    [stored] = run.payload_files
    assert run.status == RefreshRun.Status.QUEUED and uploads_storage().exists(stored["stored"])

    later = timezone.now() + datetime.timedelta(minutes=2 * settings.REFRESH_STUCK_AFTER_MINUTES + 1)
    assert fail_stuck_runs(now=later) == [run.pk]
    run.refresh_from_db()
    assert run.status == RefreshRun.Status.FAILED and run.payload_files == []
    assert not uploads_storage().exists(stored["stored"])
