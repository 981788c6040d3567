"""The review of changed figures runs after a publication commits (in a worker), not inside the
publish transaction; with the broker down, it still runs, in the publishing process."""

import datetime
import logging

import pytest

from reviews import tasks
from reviews.models import ChangeSet, FigureChange
from tests.factories import SnapshotFactory
from tests.figures_support import glm_data, glm_values, make_article, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def glm():
    data = glm_data()
    make_article([table(data)], sources=[data["source"], data["pricing"]], title="GLM page")
    return data


def newer_snapshot(data, speed):
    return SnapshotFactory(
        source=data["source"],
        measured_at=data["snapshot"].measured_at + datetime.timedelta(hours=1),
        values=glm_values(data, {("fast", "output_speed_median"): speed}),
    )


def test_the_publication_commits_before_the_review_runs(glm, django_capture_on_commit_callbacks):
    snapshot = newer_snapshot(glm, "301.2")
    with django_capture_on_commit_callbacks() as queued:
        snapshot.publish()
        # Inside the publish transaction nothing was compared yet.
        assert not ChangeSet.objects.filter(snapshot=snapshot).exists()
    for callback in queued:
        callback()
    changed = FigureChange.objects.filter(change_set__snapshot=snapshot, language="en", kind="value")
    assert [(item.old_text, item.new_text) for item in changed] == [("283.4", "301.2")]


def test_with_the_broker_down_the_review_is_recorded_in_the_publishing_process(
    glm, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    def broker_down(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.record_snapshot_changes, "delay", broker_down)
    snapshot = newer_snapshot(glm, "301.2")
    with caplog.at_level(logging.WARNING, logger="reviews.tasks"):
        with django_capture_on_commit_callbacks(execute=True):
            snapshot.publish()
    assert "could not queue the review" in caplog.text
    assert FigureChange.objects.filter(change_set__snapshot=snapshot, new_text="301.2").exists()
