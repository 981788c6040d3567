"""When each language version of an article went live, kept once computed.

`articles.versions.language_live_since` walks the page's publication log back while the published
revisions print the same in a language, which means loading and normalizing whole revisions (both
languages' bodies): a fifth of a live render of the demo article. Its answer depends only on the log
up to the newest publication, and log entries are never edited, so it is stored under the newest
publication's log entry: a new publication or withdrawal is a new entry, and a new key. The first
render after a publication (normally the pre-render task) computes and stores it; the rest read one row.
"""

import logging

from django.db import DatabaseError, models, transaction

log = logging.getLogger(__name__)


class LanguageLiveSince(models.Model):
    page = models.ForeignKey("wagtailcore.Page", on_delete=models.CASCADE, related_name="+")
    language = models.CharField(max_length=8)
    # The newest publication log entry (wagtail.publish) the answer was computed after.
    entry_id = models.BigIntegerField()
    since = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["page", "language", "entry_id"], name="language_live_since_once")
        ]

    def __str__(self):
        return f"{self.page_id} · {self.language} · live since {self.since:%Y-%m-%d %H:%M:%S}"


def stored(page_id, language, entry_id):
    return (
        LanguageLiveSince.objects.filter(page_id=page_id, language=language, entry_id=entry_id)
        .values_list("since", flat=True)
        .first()
    )


def store(page_id, language, entry_id, since):
    """Keep the answer; older entries' answers for the page and language go. A failed write (a
    read-only connection, a race with another renderer) costs only the next render's recomputation."""
    try:
        with transaction.atomic():
            LanguageLiveSince.objects.filter(page_id=page_id, language=language).exclude(entry_id=entry_id).delete()
            LanguageLiveSince.objects.bulk_create(
                [LanguageLiveSince(page_id=page_id, language=language, entry_id=entry_id, since=since)],
                ignore_conflicts=True,
            )
    except DatabaseError as error:
        log.warning("could not keep when page %s (%s) went live: %s", page_id, language, error)
