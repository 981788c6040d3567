"""Opening the demo article in the editor, and publishing it from there, costs a bounded number of
queries, the same when the body holds more data blocks: the values editors chose (models, sources,
endpoints) are looked up in bulk, not block by block."""

import copy

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from articles.models import ArticlePage
from benchmarks.models import LanguageModel
from reviews import tasks
from tests.admin_forms import form_data
from tests.page_post_data import stream_post_data

pytestmark = pytest.mark.django_db

EXTRA = 5
EDIT_BOUND = 90  # measured: 82 with or without the extra blocks (was 154, and 186 with them)
PUBLISH_BOUND = 650  # a loose bound across block counts; tests/test_publish_cost.py holds the demo article to 150


def edit_url(page):
    return f"/admin/pages/{page.pk}/edit/"


def leaderboard(models, source_id):
    return {
        "type": "leaderboard",
        "value": {
            "metric": "output_speed_median",
            "source": source_id,
            "models": [{"model": model.pk, "source": None} for model in models],
            "window_hours": None,
            "limit": None,
            "name_style": "short",
            "value_heading_en": "",
            "caption_en": "",
        },
    }


def with_more_data_blocks(page, count):
    """A new draft of the article with `count` more leaderboards and picks tables (copies of its
    first one, which compares picks with chosen endpoints). Only the English body is edited: the
    Spanish one is derived from it (editorial.spanish), so it gets the same blocks."""
    models = list(LanguageModel.objects.order_by("pk"))
    source_id = page.page_sources.order_by("sort_order").first().source_id
    raw = [dict(item) for item in page.body_en.raw_data]
    picks = next(item for item in raw if item["type"] == "picks_table")
    for _ in range(count):
        raw.append(leaderboard(models, source_id))
        raw.append({"type": "picks_table", "value": copy.deepcopy(picks["value"])})  # no id: a new block
    page.body_en = raw
    page.save_revision()
    return ArticlePage.objects.get(pk=page.pk)


def queries(request):
    with CaptureQueriesContext(connection) as ctx:
        response = request()
    return response, len(ctx.captured_queries)


def open_editor(client, page):
    client.get(edit_url(page))  # sessions, editing-session row, caches
    response, count = queries(lambda: client.get(edit_url(page)))
    assert response.status_code == 200
    return count


def publish_from_editor(client, page):
    """Post the edit form as the browser would, with 'Publish'."""
    data = form_data(client.get(edit_url(page)).text, "page-edit-form")
    draft = ArticlePage.objects.get(pk=page.pk).get_latest_revision_as_object()
    data.update(stream_post_data(draft.body_en, "body_en"))
    data["action-publish"] = "action-publish"
    response, count = queries(lambda: client.post(edit_url(page), data))
    assert response.status_code == 302, response.context and response.context["form"].errors
    return count


@pytest.fixture
def demo_article(demo_site):
    # Both bodies (the English and the Spanish derived from it) get one leaderboard: each block type costs its own bulk lookups.
    return with_more_data_blocks(ArticlePage.objects.get(slug_en="fastest-llm-api"), 1)


def test_edit_view_queries_do_not_grow_with_data_blocks(editor_client, demo_article):
    small = open_editor(editor_client, demo_article)
    large = open_editor(editor_client, with_more_data_blocks(demo_article, EXTRA))
    assert small <= EDIT_BOUND and large <= small, (small, large)


def test_publishing_from_the_editor_does_not_grow_with_data_blocks(editor_client, demo_article, monkeypatch):
    # The typed-figure check of the new revision is a worker's job (tests run tasks eagerly).
    monkeypatch.setattr(tasks.check_typed_figures, "delay", lambda *args: None)
    small = publish_from_editor(editor_client, demo_article)
    bigger = with_more_data_blocks(ArticlePage.objects.get(pk=demo_article.pk), EXTRA)
    large = publish_from_editor(editor_client, bigger)
    # The same bound, and not a query per added block (the reference index rewrites a row or two
    # when the set of chosen values changes, so the two counts may differ by that).
    assert small <= PUBLISH_BOUND and large <= PUBLISH_BOUND and large - small < EXTRA, (small, large)
    live = ArticlePage.objects.get(pk=demo_article.pk)
    for body in (live.body_en, live.body_es):
        assert sum(1 for child in body if child.block_type == "leaderboard") == 1 + EXTRA


def test_a_draft_keeps_its_sources_in_order_and_drops_one_deleted_since(editor_client, demo_article):
    from benchmarks.models import Source
    from tests.factories import SourceFactory

    page = ArticlePage.objects.get(pk=demo_article.pk)
    listed = [row.source for row in page.page_sources.order_by("sort_order")]
    gone = SourceFactory(publisher="Gone", title="removed since the draft")
    draft = page.get_latest_revision_as_object()
    draft.page_sources = [*draft.page_sources.all(), type(draft.page_sources.first())(source=gone)]
    draft.save_revision()
    Source.objects.filter(pk=gone.pk).delete()  # nothing live refers to it

    reopened = ArticlePage.objects.get(pk=page.pk).get_latest_revision_as_object()
    assert [row.source for row in reopened.page_sources.all()] == listed
    assert editor_client.get(edit_url(page)).status_code == 200


def with_more_statements(page, count):
    """A new draft with `count` more copies of the first paragraph that holds a checked statement."""
    from articles.statements.markup import has_statements

    raw = [dict(item) for item in page.body_en.raw_data]
    paragraph = next(item for item in raw if item["type"] == "paragraph" and has_statements(item["value"]))
    raw += [{"type": "paragraph", "value": paragraph["value"]} for _ in range(count)]
    page.body_en = raw
    page.save_revision()
    return ArticlePage.objects.get(pk=page.pk)


def cache_reads(client, page):
    from django.core.cache import caches

    client.get(edit_url(page))
    backend, reads = caches["default"], []
    original = backend.get
    backend.get = lambda *args, **kwargs: reads.append(args[0]) or original(*args, **kwargs)
    try:
        assert client.get(edit_url(page)).status_code == 200
    finally:
        del backend.get  # the class's method again
    return len(reads)


def test_edit_view_reads_the_names_of_statements_once(editor_client, demo_article):
    # Each statement's chip names its providers and models; before, each read two cache keys.
    small = cache_reads(editor_client, demo_article)
    large = cache_reads(editor_client, with_more_statements(demo_article, EXTRA))
    assert large <= small, (small, large)


def test_the_editor_loads_each_chosen_model_once_and_forgets_them_with_the_request(editor_client, demo_article):
    """The form renders each block type's choosers after the view returned: without one lookup for
    the request, each type and body language read its models and sources again (5 pairs of queries
    on the demo article)."""
    from articles.blocks import choosers

    editor_client.get(edit_url(demo_article))
    with CaptureQueriesContext(connection) as ctx:
        assert editor_client.get(edit_url(demo_article)).status_code == 200
    model_reads = [q["sql"] for q in ctx.captured_queries if 'FROM "benchmarks_languagemodel"' in q["sql"]]
    assert len(model_reads) == 1, model_reads
    # Nothing outlives the request: the next one (any view) reads the database again.
    assert choosers._shared.get() is None
