"""The typed-figure check runs in a worker once per page revision; opening the editor reads what it
found instead of formatting every figure of the page on each visit."""

import pytest

from reviews import tasks
from tests.figures_support import glm_data, make_article, paragraph, table

pytestmark = pytest.mark.django_db

WARNING = "“283.4” in Paragraph (block 2) (English) looks like a figure"


@pytest.fixture
def typed_page():
    glm = glm_data()
    return make_article(
        [table(glm), paragraph("<p>Leads at 283.4 tokens/s.</p>")], sources=[glm["source"]], title="Typed"
    )


def edit(client, page):
    return client.get(f"/admin/pages/{page.pk}/edit/").content.decode()


def test_the_check_runs_once_per_revision(editor_client, typed_page, checks):
    assert WARNING in edit(editor_client, typed_page)
    assert WARNING in edit(editor_client, typed_page)
    assert len(checks) == 1, "the second visit reads the stored warnings"

    typed_page.save_revision()  # an edit: a new revision is checked again
    assert WARNING in edit(editor_client, typed_page)
    assert len(checks) == 2


def test_the_stored_warnings_outlive_a_cache_flush(editor_client, typed_page, checks):
    from django.core.cache import cache

    from reviews.models import TypedFigureCheck

    assert WARNING in edit(editor_client, typed_page)
    cache.clear()  # a Redis restart or flush: the findings are in the database
    assert WARNING in edit(editor_client, typed_page)
    assert len(checks) == 1 and TypedFigureCheck.objects.filter(page=typed_page).count() == 1


def test_opening_the_editor_queues_the_check_and_never_runs_it(editor_client, typed_page, checks, monkeypatch):
    queued = []
    monkeypatch.setattr(tasks.check_typed_figures, "delay", lambda *args: queued.append(args))
    first = edit(editor_client, typed_page)
    assert WARNING not in first and checks == []
    assert edit(editor_client, typed_page) and len(queued) == 1, "queued once while it is pending"

    tasks.check_typed_figures(*queued[0])  # the worker runs it
    assert WARNING in edit(editor_client, typed_page)


def test_the_warnings_are_in_the_editors_language(client, django_user_model, typed_page):
    user = django_user_model.objects.create_superuser("ana", "ana@example.com", "pw-ana-123456")
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "es"
    profile.save()
    client.force_login(user)
    page = edit(client, typed_page)
    assert "parece una cifra" in page and WARNING not in page


def test_findings_stored_by_the_check_before_fields_had_keys_are_checked_again(editor_client, typed_page, checks):
    """Stored before each finding recorded its field's key (and so its other language): read as not
    checked, so the page is checked again rather than shown with the old places and evidence."""
    from reviews.models import TypedFigureCheck

    old = [{"language": "en", "place": "Provider cards (block 2) › cards 1 › strengths", "typed": "Leads",
            "figures": ["ranking claim about Baseten"], "context": "Leads"}]
    TypedFigureCheck.objects.create(
        revision_id=typed_page.latest_revision_id, page=typed_page, language="en", findings=old
    )
    text = edit(editor_client, typed_page)
    assert "cards 1" not in text and WARNING in text and len(checks) == 1
    report = editor_client.get("/admin/reviews/typed-figures/").content.decode()
    assert "cards 1" not in report and "<strong>283.4</strong>" in report
