"""A publish is all or nothing (articles/publishing.py): when anything fails before the commit, the page,
its revisions and the content version are as they were, and the editor gets an error.

Each failure is injected with a `page_published` / `page_unpublished` receiver connected after ours,
so it fails where the database crash of the original report struck: after Wagtail saved the page
live, while the handlers that must come with it ran. (tests/test_crash_consistency.py stops a real
server there.)"""

import pytest
from wagtail.signals import page_published, page_unpublished

from articles.models import ArticlePage
from articles.publishing import WRAPPED, AtomicAdminChangesMiddleware
from benchmarks.versioning import current_version

pytestmark = pytest.mark.django_db

NEW_TITLE = "A title that must never go live"


class Refused(Exception):
    pass


@pytest.fixture
def failing(request):
    """Make the given signal fail after our handlers ran (it is connected after them)."""
    connected = []

    def fail_on(signal):
        def refuse(**kwargs):
            raise Refused("the database went away")

        signal.connect(refuse, weak=False, dispatch_uid="test-refuse")
        connected.append(signal)

    yield fail_on
    for signal in connected:
        signal.disconnect(dispatch_uid="test-refuse")


def article():
    return ArticlePage.objects.get(slug_en="fastest-llm-api")


def as_stored(page):
    fresh = ArticlePage.objects.get(pk=page.pk)
    return fresh.title_en, fresh.live, fresh.live_revision_id, fresh.revisions.count()


def test_a_publish_that_fails_after_the_page_was_saved_leaves_nothing_live(demo_site, failing):
    page = article()
    page.title_en = NEW_TITLE
    revision = page.save_revision()
    before, version = as_stored(page), current_version()
    failing(page_published)
    with pytest.raises(Refused):
        revision.publish()
    assert as_stored(page) == before
    assert current_version() == version


def test_an_editor_whose_publish_fails_gets_an_error_and_the_page_stays_as_it_was(
    demo_site, editor_client, failing
):
    from tests.workspace_support import post_page_editor

    page = article()
    before, version = as_stored(page), current_version()
    failing(page_published)
    editor_client.raise_request_exception = False
    response = post_page_editor(editor_client, page, title_en=NEW_TITLE)
    assert response.status_code == 500  # not "published": it was not
    assert as_stored(page) == before  # not even the revision the edit view saved first
    assert current_version() == version
    editor_client.logout()
    assert NEW_TITLE not in editor_client.get("/en/fastest-llm-api/").text


def test_an_unpublish_that_fails_leaves_the_page_live(demo_site, failing):
    page = article()
    before = as_stored(page)
    failing(page_unpublished)
    with pytest.raises(Refused):
        page.unpublish()
    assert as_stored(page) == before


def test_a_publish_commits_the_content_version_with_the_live_revision(demo_site, django_capture_on_commit_callbacks):
    from benchmarks.cache import reflected_state
    from benchmarks.versioning import database_state

    page = article()
    page.title_en = "Published in one transaction"
    version = current_version()
    with django_capture_on_commit_callbacks(execute=True):
        page.save_revision().publish()
        assert current_version() == version + 1  # before the commit, in the publish's transaction
    assert reflected_state() == database_state()  # the caches followed, and said so


def test_every_action_wagtail_publishes_or_unpublishes_with_runs_in_a_transaction():
    """Fails when a Wagtail upgrade gives one of these classes an `execute` of its own that the
    wrapper does not cover (articles.publishing.install)."""
    from wagtail.actions.publish_page_revision import PublishPageRevisionAction
    from wagtail.actions.publish_revision import PublishRevisionAction
    from wagtail.actions.unpublish import UnpublishAction
    from wagtail.actions.unpublish_page import UnpublishPageAction
    from wagtail.admin.views.pages import edit, unpublish

    for action in (PublishRevisionAction, PublishPageRevisionAction, UnpublishAction, UnpublishPageAction,
                   edit.PublishPageRevisionAction, unpublish.UnpublishPageAction):
        assert getattr(action.execute, WRAPPED, False), action


def test_admin_views_that_publish_run_in_one_transaction_and_reads_do_not(rf, settings):
    from django.db import connection
    from django.http import HttpResponse
    from django.urls import resolve

    assert settings.MIDDLEWARE[-1] == "articles.publishing.AtomicAdminChangesMiddleware"
    seen = {}

    def view(request, *args, **kwargs):
        seen[request.method] = connection.in_atomic_block and len(connection.savepoint_ids)
        return HttpResponse()

    middleware = AtomicAdminChangesMiddleware(lambda request: HttpResponse())
    for method in ("get", "post"):
        request = getattr(rf, method)("/admin/pages/3/edit/")
        request.resolver_match = resolve("/admin/pages/3/edit/")
        if middleware.process_view(request, view, (), {}) is None:
            view(request)
    # The test runs inside a transaction already: the POST got a savepoint of its own, the GET none.
    assert seen == {"GET": 0, "POST": 1}
