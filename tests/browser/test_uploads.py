"""A person uploads a runner's file and watches its progress page move on its own (the page's script polls
the upload's status; no inline script, no policy violation), then sees the result."""

import pytest
from playwright.sync_api import expect

from .admin_steps import log_in, visit
from .test_csp import RECORD_VIOLATIONS

pytestmark = pytest.mark.browser


def test_an_upload_is_followed_to_its_end(page, django_user_model, tmp_path):
    from benchmarks.models import Upload
    from firstparty.models import RequestRecord, Run
    from tests.firstparty_support import first_party_source, make_endpoint, records_jsonl

    make_endpoint("acme")
    run = Run.objects.create(name="browser run", source=first_party_source("browser uploads"))
    user = django_user_model.objects.create_superuser("uploader", "u@example.com", "pw-browser-123")
    page.add_init_script(RECORD_VIOLATIONS)
    log_in(page, "uploader")

    # Through the form (tasks run eagerly in tests: the import has ended when the progress page opens).
    path = tmp_path / "runner.jsonl"
    path.write_text(records_jsonl(25))
    visit(page, f"/admin/firstparty/runs/{run.pk}/upload/")
    page.get_by_label("Records file (.jsonl, .csv or a runner's .json)").set_input_files(str(path))
    page.get_by_role("button", name="Upload", exact=True).click()
    expect(page.locator(".import-summary")).to_contain_text("25 records imported from runner.jsonl")
    assert RequestRecord.objects.filter(run=run).count() == 25

    # An import under way, as a worker reports it: the page follows without being reloaded by hand.
    upload = Upload.objects.create(kind="records", name="big.jsonl", size=4000, status="importing", rows_read=1000,
                                   bytes_read=1000, uploaded_by=user, options={"run": run.pk}, target=run.name)
    visit(page, f"/admin/benchmarks/uploads/{upload.pk}/progress/")
    text = page.locator("[data-upload-text]")
    expect(text).to_contain_text("1,000 rows read")
    Upload.objects.filter(pk=upload.pk).update(rows_read=3000, bytes_read=3000)
    expect(text).to_contain_text("3,000 rows read")
    expect(page.locator("[data-upload-percent]")).to_have_attribute("value", "75")
    Upload.objects.filter(pk=upload.pk).update(status="done", rows_read=4000, bytes_read=4000,
                                               summary="4000 records imported from big.jsonl.")
    expect(page.locator(".import-summary")).to_contain_text("4000 records imported from big.jsonl.")
    expect(page.locator("[data-upload-status]")).to_have_count(1)

    assert page.evaluate("window.__cspViolations") == []
    assert page.console_errors == []
