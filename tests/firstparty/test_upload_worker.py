"""A real Celery worker imports a records file uploaded in the admin, end to end, while the progress page's
status moves."""

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from benchmarks.models import Upload
from firstparty.importers import open_original
from firstparty.models import ImportedFile, RequestRecord, Run
from tests.firstparty_support import first_party_source, make_endpoint, records_jsonl
from tests.worker_support import celery_worker

ROWS = 60_000


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_imports_an_uploaded_file_with_progress(client, django_user_model):
    make_endpoint("acme")
    run = Run.objects.create(name="worker upload", source=first_party_source("worker upload"))
    client.force_login(django_user_model.objects.create_superuser("editor", "e@example.com", "pw-editor-123"))
    text = records_jsonl(ROWS)
    with celery_worker("celery", {"UPLOAD_PROGRESS_SECONDS": "0.05"}) as worker:
        response = client.post(reverse("firstparty_actions:upload", args=[run.pk]),
                               {"file": SimpleUploadedFile("big.jsonl", text.encode()), "aggregate": "on"})
        assert response.status_code == 302
        upload = Upload.objects.get()
        status_url = reverse("benchmarks_uploads:status", args=[upload.pk])
        seen, deadline = [], time.monotonic() + 180
        while time.monotonic() < deadline:
            state = client.get(status_url).json()
            seen.append((state["status"], state["rows_read"], state["bytes_read"]))
            if state["finished"]:
                break
            if worker.poll() is not None:
                pytest.fail(f"worker exited early:\n{worker.stdout.read()}")
            time.sleep(0.05)
        else:
            worker.terminate()
            pytest.fail(f"not imported within 180 s (seen {seen[-3:]}):\n{worker.communicate(timeout=20)[0]}")

    assert seen[-1] == ("done", ROWS, len(text))
    moving = [(rows, read) for status, rows, read in seen if status == "importing"]
    # The page saw the import move: rows and bytes read rising while the transaction was still open.
    assert any(0 < rows < ROWS for rows, _read in moving), seen
    assert all(b >= a for a, b in zip(moving, moving[1:], strict=False)), moving
    assert RequestRecord.objects.filter(run=run).count() == ROWS
    run.refresh_from_db()
    assert run.snapshot is not None and run.status == "aggregated"
    kept = ImportedFile.objects.get(run=run)
    with open_original(kept) as original:  # kept compressed; the upload's uncompressed copy is gone
        assert original.read() == text.encode()
    assert kept.stored.name.endswith(".gz") and not Upload.objects.get().file
    page = client.get(reverse("benchmarks_uploads:progress", args=[upload.pk])).text
    assert f"{ROWS:,} records imported from big.jsonl".replace(",", "") in page.replace(",", "")
