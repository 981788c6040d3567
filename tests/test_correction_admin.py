"""A correction made in the admin keeps the time of the snapshot it corrects, to the microsecond a refresh
recorded, unless the editor changes it; a time the editor types is kept to the second."""

import datetime

import pytest

from benchmarks.models import Snapshot

from .admin_forms import form_data
from .data_admin_support import (
    endpoints_fixture,  # noqa: F401  (the endpoints fixture)
    url,
)
from .factories import SnapshotFactory

pytestmark = pytest.mark.django_db

# As a refresh stores it: with the sub-second part of the moment it read the upstream.
MEASURED = datetime.datetime(2026, 12, 1, 18, 16, 16, 594170, tzinfo=datetime.UTC)
FETCHED = datetime.datetime(2026, 12, 1, 18, 16, 17, 8012, tzinfo=datetime.UTC)


@pytest.fixture
def correction(editor_client, endpoints):
    published = SnapshotFactory(values=[(endpoints["fw_glm"], "output_speed_median", "210.4")], published=True,
                                measured_at=MEASURED, fetched_at=FETCHED)
    editor_client.post(url("snapshot", "correct", published.pk))
    draft = Snapshot.objects.get(supersedes=published)
    assert (draft.measured_at, draft.fetched_at) == (MEASURED, FETCHED)  # the copy is exact
    return draft


def edit_form(client, snapshot):
    return form_data(client.get(url("snapshot", "edit", snapshot.pk)).text, "w-editor-form")


def test_saving_a_correction_untouched_keeps_the_microseconds_of_its_times(editor_client, correction):
    data = edit_form(editor_client, correction)
    assert data["measured_at"] == "2026-12-01 18:16:16"  # what the editor sees: to the second
    assert editor_client.post(url("snapshot", "edit", correction.pk), data).status_code == 302

    correction.refresh_from_db()
    assert correction.measured_at == MEASURED, "18:16:16.594170 must not become 18:16:16"
    assert correction.fetched_at == FETCHED


def test_a_time_the_editor_changes_is_saved_with_its_seconds(editor_client, correction):
    data = edit_form(editor_client, correction)
    data["measured_at"] = "2026-12-01 18:20:42"
    assert editor_client.post(url("snapshot", "edit", correction.pk), data).status_code == 302

    correction.refresh_from_db()
    assert correction.measured_at == datetime.datetime(2026, 12, 1, 18, 20, 42, tzinfo=datetime.UTC)
    assert correction.fetched_at == FETCHED  # the field left alone is still exact
