"""A durable version number for everything a rendered article shows, kept in the database.

The Redis generations (benchmarks/cache.py, config/page_cache.py) invalidate cached copies fast, but
Redis can be down or lose a bump. Pre-rendered articles (articles/prerender.py) live in the
database and must never be served after what they show changed, so their key holds this number.
It is bumped in the same transaction as the change (published data, a page published, moved or
deleted): a reader either sees the old data with the old rendering, or the new data without it.
"""

import hashlib
from functools import partial

from django.db import connection, models, transaction
from django.dispatch import Signal

# Sent once a transaction that bumped the content version committed, with its keys (None: everything):
# caches outside the database follow it (benchmarks.cache.follow_content_version). A signal, so the data
# layer's version knows nothing of the caches that listen.
content_version_bumped = Signal()


class ContentVersion(models.Model):
    """One row (pk=1), created by the migration."""

    version = models.BigIntegerField(default=1)
    # The version of the last change of unknown reach: every rendering made before it is retired.
    everything = models.BigIntegerField(default=1)

    class Meta:
        verbose_name = "content version"

    def __str__(self):
        return f"content version {self.version}"


class DependencyVersion(models.Model):
    """The content version at which something a rendering may show last changed ("model:12",
    "page:40"). A stored rendering made at version V is exact while none of its keys has
    a version above V (articles/prerender.py), so a change retires only what depends on it."""

    key = models.CharField(max_length=64, unique=True)
    version = models.BigIntegerField()

    class Meta:
        verbose_name = "dependency version"

    def __str__(self):
        return f"{self.key} changed at version {self.version}"


def model_key(model_id):
    return f"model:{model_id}"


def page_key(page_id):
    return f"page:{page_id}"


def bump_content_version(keys=None):
    """Call inside the transaction that changes what pages show, with the keys of what changed
    (`model_key`, `page_key`); without keys, everything (a change whose reach is not known). Two
    statements with keys, one without (it runs in every publish and data change), with or without the
    rows (a flushed test database has none). Once the transaction commits, `content_version_bumped`
    tells the caches outside the database which keys moved (benchmarks/cache.py listens)."""
    keys = None if keys is None else sorted(set(keys))
    transaction.on_commit(partial(content_version_bumped.send, sender=None, keys=keys), robust=True)
    table = connection.ops.quote_name(ContentVersion._meta.db_table)
    with connection.cursor() as cursor:
        if keys is None:
            cursor.execute(
                f"INSERT INTO {table} (id, version, everything) VALUES (1, 2, 2) ON CONFLICT (id) DO UPDATE "
                f"SET version = {table}.version + 1, everything = {table}.version + 1 RETURNING version"
            )
            return cursor.fetchone()[0]
        cursor.execute(
            f"INSERT INTO {table} (id, version, everything) VALUES (1, 2, 1) "
            f"ON CONFLICT (id) DO UPDATE SET version = {table}.version + 1 RETURNING version"
        )
        version = cursor.fetchone()[0]
        if keys:
            dependency = connection.ops.quote_name(DependencyVersion._meta.db_table)
            cursor.execute(
                f"INSERT INTO {dependency} (key, version) VALUES {', '.join(['(%s, %s)'] * len(keys))} "
                f"ON CONFLICT (key) DO UPDATE SET version = excluded.version",
                [value for key in keys for value in (key, version)],
            )
    return version


def everything_version_query():
    """The version of the last change of unknown reach, as a subquery."""
    return ContentVersion.objects.filter(pk=1).values("everything")


def current_version_query():
    """The current version as a subquery, so a lookup keyed on it stays one query."""
    return ContentVersion.objects.filter(pk=1).values("version")


def current_version():
    return ContentVersion.objects.filter(pk=1).values_list("version", flat=True).first() or 0


def database_state():
    """What readers should get, as the database says it now: the content version and a digest of
    every live page's live revision and place. Caches outside the database (Redis, a CDN) record the
    state they reflect (benchmarks/cache.py); the reconciler (articles/reconcile.py) compares the two.
    The digest catches a page going live, moving or leaving without the version bump its publish
    makes; drafts are left out (saving one changes nothing readers get). The place is the tree path,
    not the URL: url_path is translated, and the digest must not depend on the language a request
    runs in. Two small queries, portable (the dev settings run on SQLite)."""
    from wagtail.models import Page

    digest = hashlib.md5(usedforsecurity=False)
    for row in Page.objects.filter(live=True).order_by("pk").values_list("pk", "live_revision_id", "path"):
        digest.update(repr(row).encode())
    return f"{current_version()}:{digest.hexdigest()}"
