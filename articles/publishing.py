"""A publish is all or nothing: the new live revision and everything readers need with it commit in
one transaction, and the editor is told what committed.

Wagtail's publish is not atomic: PublishRevisionAction saves the page (autocommit) and only then
sends `page_published`, whose handler (articles/cache_purge.py) bumps the content version that
retires stored renderings. A database stopping in between left the page live with nothing else
done, and the editor looking at "Server Error (500)". Two wrappers close that:

- every publish and unpublish action runs in `transaction.atomic()`, whoever calls it: the admin,
  workflow approval, the translation approval (editorial/approval.py), scheduled publishing
  (`publish_scheduled`), management commands. Move and delete are atomic in Wagtail already.
  Wagtail offers no setting for this (the edit view imports the action class directly), so the
  classes' own `execute` is wrapped once, at start-up; tests/test_publish_atomic.py fails if an
  upgrade changes what is wrapped;
- the admin's views that change pages or snippets run each POST in one transaction
  (`AtomicAdminChangesMiddleware`), so the success message is only sent once everything but the
  commit succeeded: an error means nothing went live.

Redis and the CDN cannot join a transaction: they follow on commit (`caches_follow`), and the
reconciler (articles/reconcile.py) redoes, within a minute, whatever a crash or an outage lost.
"""

import functools
import threading

from django.db import transaction

WRAPPED = "_all_or_nothing"
_admin_post = threading.local()


def _atomic(execute):
    from .reference_index_once import one_update_per_object

    @functools.wraps(execute)
    def wrapper(self, *args, **kwargs):
        # One reference-index update per object saved, once every row of it is (reference_index_once.py).
        # Within an admin POST, already one transaction whose views let a failed publish through to
        # it, a savepoint of its own would only cost two queries; other callers may catch and go on.
        savepoint = not getattr(_admin_post, "active", False)
        with transaction.atomic(savepoint=savepoint), one_update_per_object():
            return execute(self, *args, **kwargs)

    setattr(wrapper, WRAPPED, True)
    return wrapper


def action_classes():
    """The Wagtail actions that make an object live or take it down, each with its own `execute`."""
    from wagtail.actions.publish_revision import PublishRevisionAction
    from wagtail.actions.unpublish import UnpublishAction
    from wagtail.actions.unpublish_page import UnpublishPageAction

    return [PublishRevisionAction, UnpublishAction, UnpublishPageAction]


def install():
    for cls in action_classes():
        execute = cls.__dict__["execute"]  # KeyError: Wagtail moved `execute`; see the module docstring
        if not getattr(execute, WRAPPED, False):
            cls.execute = _atomic(execute)


def _changes_pages_or_snippets(request):
    match = request.resolver_match
    if match is None:
        return False
    return (
        "wagtailadmin_pages" in match.namespaces
        or any(namespace.startswith("wagtailsnippets_") for namespace in match.namespaces)
        or match.url_name in ("wagtail_bulk_action", "editorial_workspace_review")
    )


class AtomicAdminChangesMiddleware:
    """Runs each admin POST that can publish (page and snippet views, bulk actions, a translation's
    approval) in one transaction. Listed last, so every other middleware's process_view has run.
    Work queued for after the commit (cache bumps, Celery tasks) runs once the view has returned."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        from .reference_index_once import one_update_per_object

        if request.method != "POST" or not _changes_pages_or_snippets(request):
            return None
        # The edit view saves the page for its new revision, then again to publish it: one
        # reference-index update for each object the POST saved, once all of it is saved.
        with transaction.atomic(), one_update_per_object():
            _admin_post.active = True
            try:
                return view_func(request, *view_args, **view_kwargs)
            finally:
                _admin_post.active = False
