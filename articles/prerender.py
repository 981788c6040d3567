"""Articles rendered ahead of time by a Celery task, so serving one costs what a plain page costs.

An article's figures take real work to render (formatting, ranking, provenance, footnotes): 5–7× a
rich-text page of the same size. That work belongs to the moment the data or the page changes, not
to each reader. The task renders the article's data-bearing part (its <article>, and its <head> part
with the schema.org Dataset) in each language and stores it here, with its data
page and downloads (articles/data_route_copies.py), which the same rules below serve.

A stored copy is served only when it is still exact, which is checked in the one query that reads it:
- the page's live revision is the one it was rendered from;
- the database's content version (benchmarks/versioning.py) is the one it was rendered at: that
  number is bumped in the transaction of every data change and every page publish, move or delete,
  so no refresh, import, correction or related page can leave an old copy current;
- it has not expired: a figure turning stale or leaving a leaderboard's window changes the page
  with no new data, so a copy expires at the first such moment (at the latest after
  ARTICLE_PRERENDER_SECONDS);
- it was made by the running code (config/code_version.py): a deploy retires every copy.
Anything else renders live, as before, and the next run of `prerender_due` stores a new copy.
Previews never read a stored copy. Stored copies live in PostgreSQL, so a Redis outage keeps them.
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models.functions import Coalesce
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import timezone, translation

from benchmarks.cache import dependency_generations
from benchmarks.versioning import (
    DependencyVersion,
    current_version,
    everything_version_query,
    model_key,
    page_key,
)
from config.code_version import code_version

from .data_route_copies import render_data_routes

log = logging.getLogger(__name__)

HEADER = "X-Article-Render"


class PrerenderedQuerySet(models.QuerySet):
    def exact(self, until):
        """Copies that nothing they depend on changed since they were rendered, valid past `until`.
        (The live revision is compared per page by the caller.) One query with the read: a change
        after the copy's version, to one of its keys or to everything, retires it."""
        keys = PrerenderedDependency.objects.filter(rendering_id=models.OuterRef(models.OuterRef("pk"))).values("key")
        changed = DependencyVersion.objects.filter(key__in=keys, version__gt=models.OuterRef("content_version"))
        everything = Coalesce(models.Subquery(everything_version_query()), 0)
        return self.filter(valid_until__gt=until, content_version__gte=everything, code_version=code_version()).exclude(
            models.Exists(changed))


class PrerenderedArticle(models.Model):
    page = models.ForeignKey("articles.ArticlePage", on_delete=models.CASCADE, related_name="+")
    language = models.CharField(max_length=8)
    revision_id = models.BigIntegerField()
    content_version = models.BigIntegerField()
    # The code it was made by (config/code_version.py): a deploy retires every copy made before it.
    code_version = models.CharField(max_length=12, default="", blank=True)
    head_html = models.TextField()
    article_html = models.TextField()
    # The data page and the downloads, from the same data at the same moment (articles/data_route_copies.py).
    data_html = models.TextField()
    figures_csv = models.TextField()
    figures_json = models.TextField()
    block_csvs = models.JSONField()  # {block id: [file name, CSV]} for each table, chart and leaderboard
    # The Open Graph PNG of the lead chart (articles/og_image.py); empty: the article has no chart.
    og_image = models.BinaryField(default=b"", blank=True)
    # The summary as listings print it, its statements checked on the same data (articles/listings.py).
    summary_text = models.TextField(default="", blank=True)
    rendered_at = models.DateTimeField()
    valid_until = models.DateTimeField()

    objects = PrerenderedQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["page", "language"], name="prerendered_once_per_language")]

    def __str__(self):
        return f"{self.page_id} · {self.language} · revision {self.revision_id} · version {self.content_version}"


class PrerenderedDependency(models.Model):
    """One thing a stored rendering shows (a model's figures and prices, a page it links to or sits
    under), by its key in benchmarks/versioning.py."""

    rendering = models.ForeignKey(PrerenderedArticle, on_delete=models.CASCADE, related_name="dependencies")
    key = models.CharField(max_length=64)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["rendering", "key"], name="prerendered_dependency_once")]

    def __str__(self):
        return f"{self.rendering_id} depends on {self.key}"


def dependency_keys(page):
    """What the page's rendering in the active language shows, as dependency keys: the models its
    data was loaded for (every data block and data reference declares them, articles/data.py; the page
    prints no figure of any other model, and its statements are judged on that same data),
    the pages it links to (Wagtail's reference index, written by the publish) and the pages above it."""
    from wagtail.models import Page, ReferenceIndex

    models_shown, _sources = page.page_data.requirements
    keys = {model_key(pk) for pk in models_shown}
    page_type = ReferenceIndex._get_base_content_type(Page)
    linked = ReferenceIndex.get_references_for_object(page).filter(to_content_type=page_type)
    keys |= {page_key(pk) for pk in linked.values_list("to_object_id", flat=True)}
    keys |= {page_key(pk) for pk in page.get_ancestors().values_list("pk", flat=True)}
    return keys


def enabled():
    return getattr(settings, "ARTICLE_PRERENDER", True)


def stored_copies(page, language):
    """The stored rendering of this live page in `language` if it is still exact (a queryset of at
    most one row; empty when pre-rendering is off)."""
    if not enabled() or not page.live_revision_id:
        return PrerenderedArticle.objects.none()
    return PrerenderedArticle.objects.exact(timezone.now()).filter(
        page_id=page.pk, language=language, revision_id=page.live_revision_id
    )


def stored_copy(page, language, fields=("head_html", "article_html"), request=None):
    """The stored rendering of this live page in `language`, if it is still exact; else None.

    Given the reader's request, when the page cache will keep the response, the generations of what the
    copy shows (its dependency keys and the page itself) are read first, from the cache, and handed to
    the page cache with the copy (config.page_cache.use_dependencies): the cached page then follows
    those keys, not every change. Read before the copy, so a change committed in between moves them."""
    from config.page_cache import use_dependencies, wants_dependencies

    if request is None or not wants_dependencies(request) or not enabled():
        return stored_copies(page, language).only(*fields).first()
    rows = list(PrerenderedDependency.objects.filter(rendering__page_id=page.pk, rendering__language=language)
                .values_list("rendering_id", "key"))
    generations = dependency_generations({key for _rendering, key in rows} | {page_key(page.pk)}) if rows else None
    stored = stored_copies(page, language).only("pk", *fields).first()
    if stored is not None and generations is not None and stored.pk == rows[0][0]:
        use_dependencies(request, generations)
    return stored


def live_articles():
    """Live, public articles. The model is the one a stored copy's foreign key names: models.py imports
    this module (it holds the stored copies' model and serves them), so this one does not import it."""
    return PrerenderedArticle._meta.get_field("page").related_model.objects.live().public()


def _request_for(page, language):
    site = page.get_site()
    request = RequestFactory().get(page.get_url() or "/")
    request._wagtail_site = site  # no host lookup: the task has no real request
    request.LANGUAGE_CODE = language
    return request


def render_copy(page, language):
    """(head, article, valid until) rendered as a reader would get them, in `language`."""
    with translation.override(language):
        request = _request_for(page, language)
        context = page.get_context(request)
        head = render_to_string("articles/includes/article_head.html", context, request)
        article = render_to_string("articles/includes/article_main.html", context, request)
        now = page.page_data.now
        latest = now + timedelta(seconds=settings.ARTICLE_PRERENDER_SECONDS)
        changes = page.page_data.next_change_by_time()
        return head, article, min(changes, latest) if changes else latest


def prerender(page_id):
    """Store each language's rendering of the live article; returns the languages rendered."""
    # The version is read before the data: a change committed meanwhile leaves this copy older
    # than its data, never the reverse.
    version = current_version()
    done = []
    for language, _name in settings.LANGUAGES:
        # A fresh page per language: PageData caches the body of the language it first read.
        page = live_articles().filter(pk=page_id).first()
        if page is None:
            PrerenderedArticle.objects.filter(page_id=page_id).delete()
            return done
        if not page.has_body_in(language):
            PrerenderedArticle.objects.filter(page_id=page_id, language=language).delete()
            continue
        head, article, valid_until = render_copy(page, language)
        keys = dependency_keys(page)
        with translation.override(language):  # the same page and data: the same moment as the article
            data_routes = render_data_routes(page, _request_for(page, language))
            summary = page.summary_text()
        values = {"revision_id": page.live_revision_id, "content_version": version, "code_version": code_version(),
                  "head_html": head,
                  "article_html": article, "rendered_at": timezone.now(), "valid_until": valid_until,
                  "summary_text": summary, **data_routes}
        try:
            with transaction.atomic():
                stored, _created = PrerenderedArticle.objects.update_or_create(
                    page_id=page_id, language=language, defaults=values)
                stored.dependencies.all().delete()
                PrerenderedDependency.objects.bulk_create(PrerenderedDependency(rendering=stored, key=key)
                                                          for key in sorted(keys))
        except IntegrityError:  # another worker stored the same page and language at the same moment
            log.info("pre-render of article %s (%s) raced another worker; keeping theirs", page_id, language)
            continue
        done.append(language)
    return done


def due_pages(margin_seconds=None):
    """Live articles whose stored copies are missing, no longer exact, or expire within the margin."""
    margin = settings.ARTICLE_PRERENDER_MARGIN_SECONDS if margin_seconds is None else margin_seconds
    exact = set(
        PrerenderedArticle.objects.exact(timezone.now() + timedelta(seconds=margin)).values_list(
            "page_id", "language", "revision_id"
        )
    )
    due = []
    for page in live_articles().order_by("pk"):
        wanted = {(page.pk, language, page.live_revision_id) for language, _name in settings.LANGUAGES
                  if page.has_body_in(language)}
        if not wanted <= exact:
            due.append(page.pk)
    return due
