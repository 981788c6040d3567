"""Admin uploads are stored and queued by the request, imported by a task that reports its progress, and
fail cleanly: every error on the progress page, nothing written, the file cleared away. The task runs
eagerly here, when the upload's row commits; tests/firstparty/test_upload_worker.py runs a real worker."""

import re
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from kombu.exceptions import OperationalError

from benchmarks.models import Upload
from benchmarks.upload_models import uploads_storage
from firstparty.models import ImportedFile, RequestRecord, Run
from firstparty.tasks import import_records_upload

from .firstparty_support import first_party_source, make_endpoint, records_jsonl
from .upload_support import post_upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def run(db):
    make_endpoint("acme")
    return Run.objects.create(name="batch 7", source=first_party_source("uploads"))


def upload_url(run):
    return reverse("firstparty_actions:upload", args=[run.pk])


def records_file(text, name="runner.jsonl"):
    return SimpleUploadedFile(name, text.encode() if isinstance(text, str) else text)


def status(client, upload):
    response = client.get(reverse("benchmarks_uploads:status", args=[upload.pk]))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    return response.json()


def test_the_request_only_stores_and_queues_the_file(editor_client, run, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = editor_client.post(upload_url(run), {"file": records_file(records_jsonl(12)), "aggregate": "on"})
    upload = Upload.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/admin/benchmarks/uploads/{upload.pk}/progress/"
    # Nothing is imported in the request: the row waits for the worker with the file in the uploads storage.
    assert upload.status == "queued" and not RequestRecord.objects.exists() and len(queued) == 1
    assert uploads_storage().exists(upload.file.name) and upload.size == len(records_jsonl(12))
    assert upload.uploaded_by.username == "editor" and upload.options == {
        "run": run.pk, "aggregate": True, "language": "en", "format": "", "benchmark": None, "endpoint": None,
        "started_at": None}
    page = editor_client.get(response["Location"]).text
    assert "Queued" in page and "Waiting for a worker to start the import." in page
    assert 'defer src="/static/benchmarks/js/upload_progress.js"' in page and '<meta http-equiv="refresh"' in page
    assert status(editor_client, upload)["status"] == "queued"

    stored_original = upload.file.name
    queued[0]()  # the commit: the task runs (eagerly here)
    upload.refresh_from_db()
    assert upload.status == "done" and upload.rows_read == 12 and upload.bytes_read == upload.size
    assert RequestRecord.objects.filter(run=run).count() == 12
    kept = ImportedFile.objects.get(run=run)
    # The import keeps its own compressed copy; the uploaded original is removed.
    assert kept.stored.name.endswith(".gz") and uploads_storage().exists(kept.stored.name)
    assert not upload.file and not uploads_storage().exists(stored_original)
    state = status(editor_client, upload)
    assert state["finished"] and state["percent"] == 100 and state["label"] == "Imported"
    page = editor_client.get(response["Location"]).text
    assert "12 records imported from runner.jsonl" in page and "The run was aggregated into snapshot" in page
    assert '<meta http-equiv="refresh"' not in page and reverse("firstparty_actions:progress", args=[run.pk]) in page


def test_a_malformed_file_fails_cleanly_with_its_errors_on_the_progress_page(editor_client, run):
    # The first bad row comes after the first COPY chunks were sent: they are rolled back with the rest.
    text = records_jsonl(12_000, bad_rows={11_000, 11_500}) + "{not json\n"
    page = post_upload(editor_client, upload_url(run), {"file": records_file(text)}).text
    upload = Upload.objects.get()
    assert upload.status == "failed" and "Failed" in page
    assert "runner.jsonl: 3 errors. Nothing was imported; fix the file and upload it again." in page
    problems = re.findall(r'<tr class="import-error">\s*<td>.*?</td>\s*<td>.*?</td>\s*<td>(.*?)</td>', page)
    assert [p.split(":")[0] for p in problems] == ["row 11000", "row 11500", "row 12001"]
    assert "row 11000: column outcome: &#x27;maybe&#x27; is not one of" in problems[0]
    assert not RequestRecord.objects.exists() and not ImportedFile.objects.exists()
    run.refresh_from_db()
    assert run.status == "draft" and not run.endpoints.exists()
    assert upload.file.name == "" and status(editor_client, upload)["finished"]
    assert reverse("firstparty_actions:upload", args=[run.pk]) in page  # "Upload another file"


def test_text_that_is_not_utf8_is_an_error_with_its_row(editor_client, run):
    text = records_jsonl(3).encode() + '{"provider": "acme", "error": "caf\xe9"}\n'.encode("latin-1")
    page = post_upload(editor_client, upload_url(run), {"file": records_file(text)}).text
    assert "row 4: not UTF-8 text (byte 0xE9 cannot be read)" in page and not RequestRecord.objects.exists()


def test_the_form_refuses_a_file_over_the_limit_or_of_another_format(editor_client, run, settings):
    settings.RECORDS_UPLOAD_MAX_BYTES = 1024 * 1024
    response = editor_client.post(upload_url(run), {"file": records_file("x" * (1024 * 1024 + 1))})
    assert "The file is larger than 1 MB; import it with manage.py import_requests." in response.text
    response = editor_client.post(upload_url(run), {"file": records_file("a,b\n", name="runner.xlsx")})
    assert "runner.xlsx: use a .jsonl, .csv or .json file." in response.text
    assert not Upload.objects.exists()


def test_an_unreachable_queue_fails_the_upload_and_clears_the_file(editor_client, run, monkeypatch):
    def unreachable(*args, **kwargs):
        raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setattr(import_records_upload, "delay", unreachable)
    page = post_upload(editor_client, upload_url(run), {"file": records_file(records_jsonl(2))}).text
    upload = Upload.objects.get()
    assert upload.status == "failed" and upload.file.name == ""
    assert "The import could not be queued: the task queue is unreachable." in page


def test_a_snapshot_upload_held_for_review_says_so_and_links_the_draft(editor_client, db):
    from .factories import EndpointFactory, LanguageModelFactory, ProviderFactory, SourceFactory

    EndpointFactory(provider=ProviderFactory(slug="fireworks"), model=LanguageModelFactory(slug="glm-5-3"))
    source = SourceFactory(title="Bench source")
    page = post_upload(editor_client, reverse("benchmarks_import_snapshot:upload"), {
        "file": SimpleUploadedFile("aa.csv", b"provider,model,tier,metric,value\nfireworks,glm-5-3,,output_speed_median,1e9\n"),
        "source": source.pk, "measured_at": "2026-11-28 14:00", "publish": "on",
    }).text
    upload = Upload.objects.get()
    assert upload.status == "done" and upload.attention and upload.snapshot.status == "draft"
    assert 'class="import-summary import-held"' in page and "Held for review, not published" in page
    assert f"Open snapshot #{upload.snapshot_id}" in page and upload.target == str(source)
    assert upload.file.name == ""  # the snapshot keeps the payload; the upload's copy is not needed


def test_an_import_that_stopped_moving_is_pointed_out(editor_client, run, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        editor_client.post(upload_url(run), {"file": records_file(records_jsonl(2))})
    upload = Upload.objects.get()
    Upload.objects.filter(pk=upload.pk).update(updated_at=upload.updated_at - timedelta(minutes=12))
    assert status(editor_client, upload)["stalled"] == (
        "No worker has started this import for 12 minutes: is a Celery worker running?")
    Upload.objects.filter(pk=upload.pk).update(status="importing")
    assert "The import has not moved for 12 minutes" in editor_client.get(
        reverse("benchmarks_uploads:progress", args=[upload.pk])).text


def test_the_uploads_listing_searches_filters_and_starts_empty(editor_client, run):
    listing = reverse("benchmarks_uploads:index")
    assert "No file has been uploaded for import yet." in editor_client.get(listing).text
    post_upload(editor_client, upload_url(run), {"file": records_file(records_jsonl(2), "good-run.jsonl")})
    post_upload(editor_client, upload_url(run), {"file": records_file("{oops\n", "broken-run.jsonl")})
    page = editor_client.get(listing).text
    assert "good-run.jsonl" in page and "broken-run.jsonl" in page and "batch 7" in page
    assert "good-run.jsonl" not in editor_client.get(listing + "?q=broken").text
    failed = editor_client.get(listing + "?status=failed").text
    assert "broken-run.jsonl" in failed and "good-run.jsonl" not in failed
    assert "No upload matches your search or filters." in editor_client.get(listing + "?q=nothing-like-it").text
    assert listing in editor_client.get(reverse("wagtailadmin_home")).text  # in the Benchmark data menu


def test_uploads_are_shown_only_to_those_who_may_upload_that_kind(client, editor_client, run, django_user_model):
    post_upload(editor_client, upload_url(run), {"file": records_file(records_jsonl(2))})
    upload = Upload.objects.get()
    from django.contrib.auth.models import Permission

    snapshot_importer = django_user_model.objects.create_user("importer", password="pw")
    snapshot_importer.user_permissions.add(*Permission.objects.filter(codename__in=["access_admin", "add_snapshot"]))
    client.force_login(snapshot_importer)
    assert "runner.jsonl" not in client.get(reverse("benchmarks_uploads:index")).text
    for name in ("progress", "status"):
        assert client.get(reverse(f"benchmarks_uploads:{name}", args=[upload.pk])).status_code in (302, 403)


def test_a_spanish_editor_follows_an_upload_in_spanish(client, run, django_user_model):
    from wagtail.users.models import UserProfile

    from .po_catalog import read_po
    from .test_i18n_catalog import PO, english_interface_strings, english_leaks
    from .test_workspace_spanish_ui import admin_text

    editora = django_user_model.objects.create_superuser("editora", "editora@example.com", "pw-editora-123")
    profile = UserProfile.get_for_user(editora)
    profile.preferred_language = "es"
    profile.save()
    client.force_login(editora)
    strings = english_interface_strings(read_po(PO))
    leaks = {}
    listing = reverse("benchmarks_uploads:index")
    pages = [upload_url(run), listing, reverse("benchmarks_import_snapshot:upload")]
    for name, text in (("bien.jsonl", records_jsonl(3)), ("mal.jsonl", records_jsonl(3, bad_rows={2}))):
        response = post_upload(client, upload_url(run), {"file": records_file(text, name)})
        pages.append(response.request["PATH_INFO"])
    done, failed = (admin_text(client, url) for url in pages[-2:])
    assert "3 registros importados de bien.jsonl" in done.replace("\xa0", " ") and "Importada" in done
    assert "mal.jsonl: 1 error. No se importó nada" in failed and "fila 2: columna outcome" in failed
    for url in pages:
        # The listing's search and filter bar is Wagtail's own ("Filter by", "Search…" have no Spanish in
        # Wagtail 8.0's catalog): its results are ours.
        found = english_leaks(admin_text(client, url, "#listing-results" if url == listing else "main"), strings)
        if found:
            leaks[url] = found
    assert not leaks, f"English interface strings in the Spanish admin: {leaks}"
    rows = admin_text(client, listing, "#listing-results")
    assert "bien.jsonl" in rows and "Registros de peticiones" in rows and "Fallida" in rows
