"""Segment labels name a block by its own words, so they stay put when blocks move."""

import uuid

import pytest

from editorial.workspace import workspace_rows

from ..figures_support import make_article, paragraph

pytestmark = pytest.mark.django_db


def block(kind, value):
    return {"type": kind, "id": str(uuid.uuid4()), "value": value}


def labels(page):
    return {row.key: row.segment.label for row in workspace_rows(page)}


def test_labels_name_blocks_by_their_words_and_survive_moves():
    heading = block("heading", {"text": "GLM-5.3 output speed", "level": "h2", "anchor": ""})
    words = block("paragraph", "<p>Which host is quickest depends on the model you call &amp; pay for.</p>")
    page = make_article([heading, words])
    before = labels(page)
    assert before[f"body/{heading['id']}/text"].startswith("Heading · GLM-5.3 output speed")
    assert before[f"body/{words['id']}"].endswith("· Which host is quickest depends on…")

    # A block added above both and the two swapped: each keeps its label.
    revision = page.get_latest_revision_as_object()
    revision.body_en = [block("paragraph", "<p>New opening words.</p>"), words, heading]
    revision.save_revision().publish()
    page.refresh_from_db()
    after = labels(page)
    assert {key: after[key] for key in before if key.startswith("body/")} == {
        key: label for key, label in before.items() if key.startswith("body/")
    }


def test_a_short_paragraph_is_named_by_all_its_words():
    page = make_article([paragraph("<p>Words.</p>")])
    assert labels(page)[f"body/{page.body_en.raw_data[0]['id']}"].endswith("· Words.")
