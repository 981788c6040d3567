"""Four eyes: whoever prepared a change may not also approve it (settings.FOUR_EYES_APPROVAL).

It covers what reaches readers without a page publish of its own: a translation draft approved into
the live Spanish (editorial.approval) and a draft snapshot of data published from the admin
(benchmarks.admin.snapshots). On by default in production; off in development, where one person
often does everything.
"""

from django.conf import settings


def required():
    return bool(getattr(settings, "FOUR_EYES_APPROVAL", False))


def refuses(user, *authors):
    """Whether `user` may not approve a change prepared by `authors` (users or user ids; None is a
    change nobody prepared by hand, such as a scheduled refresh)."""
    if not required() or user is None or user.pk is None:
        return False
    return user.pk in {getattr(author, "pk", author) for author in authors if author is not None}
