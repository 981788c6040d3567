"""A durable version number for everything a rendered article shows, kept in the database.

The Redis generations (benchmarks/cache.py, config/page_cache.py) invalidate cached copies fast, but
Redis can be down or lose a bump. Pre-rendered articles (articles/prerender.py) live in the
database and must never be served after what they show changed, so their key holds this number.
It is bumped in the same transaction as the change (published data, a page published, moved or
deleted): a reader either sees the old data with the old rendering, or the new data without it.
"""

from django.db import models
from django.db.models import F


class ContentVersion(models.Model):
    """One row (pk=1), created by the migration."""

    version = models.BigIntegerField(default=1)

    class Meta:
        verbose_name = "content version"

    def __str__(self):
        return f"content version {self.version}"


def bump_content_version():
    """Call inside the transaction that changes what pages show."""
    if not ContentVersion.objects.filter(pk=1).update(version=F("version") + 1):
        ContentVersion.objects.get_or_create(pk=1, defaults={"version": 2})


def current_version_query():
    """The current version as a subquery, so a lookup keyed on it stays one query."""
    return ContentVersion.objects.filter(pk=1).values("version")


def current_version():
    return ContentVersion.objects.filter(pk=1).values_list("version", flat=True).first() or 0
