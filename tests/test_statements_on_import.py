"""A statement is checked at every data change, not only at a correction (issue 24): a new snapshot
imported from the command line (what an external runner's results and a refresh both end in: a
published snapshot) lists the statements it broke in the review, in both languages, and the page
marks them."""

import io
from datetime import timedelta

import pytest
from django.core.management import call_command

from reviews.models import FigureChange
from tests.figures_support import glm_data
from tests.test_statements import article, fetch

pytestmark = pytest.mark.django_db


@pytest.fixture
def glm():
    return glm_data()


def snapshot_csv(tmp_path, glm, changes):
    """The glm source's current figures as an import file, with {(endpoint key, metric): value} changed."""
    keys = {endpoint.pk: key for key, endpoint in glm.items() if hasattr(endpoint, "tier")}
    lines = ["provider,model,tier,metric,value"]
    for row in glm["snapshot"].measurements.select_related("endpoint__provider", "endpoint__model"):
        value = changes.get((keys.get(row.endpoint_id), row.metric), row.value)
        endpoint = row.endpoint
        lines.append(f"{endpoint.provider.slug},{endpoint.model.slug},{endpoint.tier},{row.metric},{value}")
    path = tmp_path / "next.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_an_imported_snapshot_that_breaks_a_statement_is_reviewed_and_marked(
    tmp_path, client, glm, django_capture_on_commit_callbacks
):
    page = article(glm)
    assert "statement--false" not in fetch(client, page, "en")
    path = snapshot_csv(tmp_path, glm, {("fast", "output_speed_median"): "140"})
    later = (glm["snapshot"].measured_at + timedelta(seconds=1)).isoformat()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_snapshot", str(path), source=str(glm["source"].pk), measured_at=later,
                     publish=True, stdout=io.StringIO())

    listed = FigureChange.objects.filter(page_id=page.pk, kind=FigureChange.Kind.STATEMENT)
    assert sorted(listed.values_list("language", flat=True)) == ["en", "es"]
    assert "statement--false" in fetch(client, page, "en")
    assert "statement--false" in fetch(client, page, "es")
