from django.db import models
from django.http import Http404
from django.template.response import TemplateResponse
from django.utils import translation
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from modelcluster.fields import ParentalKey
from modelcluster.models import model_from_serializable_data
from wagtail.admin.panels import FieldPanel, InlinePanel, MultiFieldPanel
from wagtail.contrib.routable_page.models import RoutablePageMixin, path
from wagtail.fields import RichTextField, StreamField
from wagtail.models import Orderable, Page, ReferenceIndex

from config.query_contract import QueryContractMixin
from localized.revisions import SpanishFromMemoryMixin

from .as_of_routes import ArticleAsOfRoutesMixin
from .blocks import ArticleBodyBlock
from .blocks.choosers import shared_chooser_lookups
from .change_routes import ArticleChangeRoutesMixin
from .data import PageData
from .data_routes import ArticleDataRoutesMixin
from .forms import ArticlePageForm, SourceChooser, TranslatorAwarePageForm
from .language_version import LanguageVersionMixin
from .listings import with_checked_summaries
from .live_since import LanguageLiveSince  # noqa: F401 (the model lives in live_since.py)
from .prerender import HEADER as PRERENDER_HEADER
from .prerender import PrerenderedArticle, stored_copy  # noqa: F401 (the model lives in prerender.py)
from .source_rows import skip_save
from .statements.hold import StatementHold

LANGUAGE_PREVIEW_MODES = [("en", _("English")), ("es", _("Spanish"))]


class LanguagePreviewMixin:
    """Preview each language: the preview renders inside translation.override(mode)."""

    @property
    def preview_modes(self):
        return LANGUAGE_PREVIEW_MODES

    @property
    def default_preview_mode(self):
        return translation.get_language() if translation.get_language() in dict(LANGUAGE_PREVIEW_MODES) else "en"

    def serve_preview(self, request, mode_name):
        with translation.override(mode_name or "en"):
            request.LANGUAGE_CODE = mode_name or "en"
            response = super().serve_preview(request, "")
            if hasattr(response, "render"):
                response.render()
            return response


def in_current_language(articles):
    """The articles that have a version (a body) in the active language: /es/ lists no English-only page."""
    language = (translation.get_language() or "en")[:2]
    return [article for article in articles if article.has_body_in(language)]


class HomePage(QueryContractMixin, SpanishFromMemoryMixin, LanguagePreviewMixin, LanguageVersionMixin, Page):
    intro = RichTextField(_("intro"), blank=True)
    query_parameters = {"page": ()}  # config/query_contract.py

    content_panels = Page.content_panels + [FieldPanel("intro")]
    base_form_class = TranslatorAwarePageForm
    subpage_types = ["articles.ArticlePage", "articles.ArticleIndexPage"]
    max_count = 1

    class Meta:
        verbose_name = _("home page")

    def get_context(self, request, *args, **kwargs):
        context = super().get_context(request, *args, **kwargs)
        articles = ArticlePage.objects.descendant_of(self).live().public().order_by("-first_published_at")
        context["articles"] = with_checked_summaries(in_current_language(articles))
        return context


class ArticleIndexPage(QueryContractMixin, SpanishFromMemoryMixin, LanguagePreviewMixin, LanguageVersionMixin,
                       Page):
    intro = RichTextField(_("intro"), blank=True)
    query_parameters = {"page": ()}  # config/query_contract.py

    content_panels = Page.content_panels + [FieldPanel("intro")]
    base_form_class = TranslatorAwarePageForm
    parent_page_types = ["articles.HomePage"]
    subpage_types = ["articles.ArticlePage"]

    class Meta:
        verbose_name = _("article index")

    def get_context(self, request, *args, **kwargs):
        context = super().get_context(request, *args, **kwargs)
        context["articles"] = with_checked_summaries(in_current_language(
            ArticlePage.objects.child_of(self).live().public().order_by("-first_published_at")
        ))
        return context


class ArticlePage(QueryContractMixin, SpanishFromMemoryMixin, LanguagePreviewMixin, LanguageVersionMixin,
                  ArticleChangeRoutesMixin, ArticleDataRoutesMixin, ArticleAsOfRoutesMixin, RoutablePageMixin, Page):
    # Rich text only so that its claims can be checked statements: the meta description, Open Graph,
    # Twitter, JSON-LD and listings are built from it with false statements left out.
    summary = RichTextField(_("summary"), blank=True, features=["bold", "italic", "statement"])
    body = StreamField(ArticleBodyBlock(), blank=True, verbose_name=_("body"))
    publisher_disclosure = RichTextField(
        _("publisher disclosure"),
        blank=True,
        features=["bold", "italic", "link"],
        help_text=_("Say so when the publisher is one of the ranked providers."),
    )
    statement_policy = models.CharField(
        _("when a checked statement no longer matches the data"),
        max_length=8,
        choices=[
            ("mark", _("Mark it (the sentence stays, marked “no longer matches the data”)")),
            ("hide", _("Hide it until an editor acts")),
            ("hold", _("Hold the page on the data of the last moment all statements held")),
        ],
        default="mark",
    )
    show_meta_line = models.BooleanField(
        _("show the “Updated · N sources · Methodology” line"), default=True
    )

    content_panels = Page.content_panels + [
        FieldPanel("summary"),
        FieldPanel("body"),
        MultiFieldPanel(
            [InlinePanel("page_sources", label=_("Source"), heading=_("Sources (footnote numbers, in order)"))],
            heading=_("Sources"),
        ),
        MultiFieldPanel([FieldPanel("publisher_disclosure"), FieldPanel("show_meta_line")], heading=_("Disclosure")),
        FieldPanel("statement_policy"),
    ]
    base_form_class = ArticlePageForm
    parent_page_types = ["articles.HomePage", "articles.ArticleIndexPage"]
    subpage_types = []
    # The query parameters each route reads (config/query_contract.py): none, so `?anything` is
    # removed before the route runs and the page cache answers it with the clean URL's copy.
    # The change log reads its page number.
    query_parameters = {
        "article": (), "data_trail": (), "figures_csv": (), "figures_json": (), "block_csv": (),
        "changes": ("page",), "changes_feed": (), "as_of": (), "og_image": (),
    }

    class Meta:
        verbose_name = _("article")

    @cached_property
    def page_data(self):
        # The body stays lazy: a page served from its stored rendering never converts its blocks or queries.
        return PageData(page=self, blocks=self.body, as_of=self.held_as_of)

    @cached_property
    def held_as_of(self):
        """Under the "hold" policy, the moment the page's figures are shown as of (None: current)."""
        if self.statement_policy != "hold" or not self.pk:
            return None
        return StatementHold.objects.filter(page_id=self.pk).values_list("as_of", flat=True).first()

    def get_context(self, request, *args, **kwargs):
        context = super().get_context(request, *args, **kwargs)
        context["page_data"] = self.page_data
        return context

    def has_body_in(self, language):
        """Articles never fall back to English text: a language without a body has no version."""
        return language == "en" or bool(getattr(self, f"body_{language}", None))

    def has_version_in(self, language):
        return self.has_body_in(language)  # the title falls back (docs/translation.md)

    def _require_language_version(self, request):
        # Previews still show the empty language (the editor is writing it); readers get a 404.
        language = (translation.get_language() or "en")[:2]
        if not getattr(request, "is_preview", False) and not self.has_body_in(language):
            raise Http404("no version of this article in this language")

    @path("")
    def article(self, request):
        self._require_language_version(request)
        stored = None if getattr(request, "is_preview", False) else stored_copy(
            self, translation.get_language(), request=request)
        if stored is None:
            response = self.render(request)
            response[PRERENDER_HEADER] = "live"
            return response
        # The stored copy holds everything that reads data; the rest of the page is the page's own
        # fields, so no data, no PageData and no data generation are needed here.
        response = TemplateResponse(
            request, self.get_template(request), {"page": self, "self": self, "request": request, "prerendered": stored}
        )
        response[PRERENDER_HEADER] = "stored"
        return response

    @classmethod
    def from_serializable_data(cls, data, check_fks=True, strict_fks=False):
        """A revision's page. modelcluster checks that each page-source row's page and source still
        exist with two queries per row (36 for the demo article, on every opening of a draft in the
        editor, preview and publish); check the sources in one query instead. A row whose source is
        gone is dropped, as modelcluster drops a child whose parent link dangles."""
        rows = data.get("page_sources")
        if not check_fks or not rows:
            return super().from_serializable_data(data, check_fks, strict_fks)
        page = super().from_serializable_data(
            {key: value for key, value in data.items() if key != "page_sources"}, check_fks, strict_fks
        )
        if page is None:
            return None
        from benchmarks.models import Source

        existing = set(Source.objects.filter(pk__in=[row.get("source") for row in rows]).values_list("pk", flat=True))
        page.page_sources = [
            model_from_serializable_data(ArticleSource, row, check_fks=False)
            for row in rows
            if row.get("source") in existing
        ]
        return page

    def publish(self, revision, *args, **kwargs):
        # Publishing saves the page and each of its ~20 source rows; every save re-indexed the whole
        # page for Wagtail's reference index (both bodies' chooser values looked up again each
        # time: ~700 queries for the demo article). Index once, after the publish, instead.
        from wagtail.signal_handlers import (  # needs the app registry
            disable_reference_index_auto_update,
            reference_index_auto_update_disabled,
        )

        if getattr(reference_index_auto_update_disabled, "value", False):
            # The caller turned indexing off (a bulk load): leave it off, and its context manager intact.
            return super().publish(revision, *args, **kwargs)
        with shared_chooser_lookups():
            with disable_reference_index_auto_update():
                result = super().publish(revision, *args, **kwargs)
            ReferenceIndex.create_or_update_for_object(type(self).objects.get(pk=self.pk))
        return result

    def full_clean(self, *args, exclude=None, **kwargs):
        # Every save validates the page, and with it checks by a query that the revisions Wagtail
        # itself just pointed latest_revision and live_revision at exist (six queries a publish).
        exclude = {*(exclude or ()), "latest_revision", "live_revision"}
        return super().full_clean(*args, exclude=exclude, **kwargs)

    def save_revision(self, *args, **kwargs):
        # Saving a revision re-indexes references too; both bodies then name the same models and
        # sources block type after block type, so load each chosen object once.
        with shared_chooser_lookups():
            return super().save_revision(*args, **kwargs)

    @property
    def updated_at(self):
        """When the newest figure the page shows was measured ("Data as of")."""
        return self.page_data.newest_measured_at()

    @property
    def figures_changed_at(self):
        """When a figure the page shows last changed: measured, or published later by a refresh or a
        correction ("Updated", the Dataset's dateModified)."""
        moments = [self.updated_at, self.page_data.data_changed_at()]
        return max((moment for moment in moments if moment is not None), default=None)

    @property
    def source_count(self):
        # Rendered after the body, so sources that new data cites (appended) are counted too.
        return len(self.page_data.numbered_sources)

    def methodology_anchor(self):
        for child in self.body:
            if child.block_type == "methodology":
                return "methodology"
        return ""

    def meta_description(self):
        """The meta, Open Graph, Twitter and JSON-LD description: the checked summary (a false statement
        left out), never a second typed copy. The Promote tab's search description is used only by a
        page with no summary (the typed-figure check reads it too, articles/prose_fields.py)."""
        return (self.summary_text() or self.search_description or "").strip()[:300]

    def summary_text(self):
        """The summary as plain text, each statement's words kept while its claim holds and left out
        once the data no longer bears it out (whatever the page's policy: a description has no mark)."""
        from articles.statements.markup import checked_plain_text, has_statements

        stored = self.__dict__.get("stored_summary_text")  # a listing's (articles/listings.py)
        if stored is not None:
            return stored
        summary = self.summary or ""
        if not has_statements(summary):
            return checked_plain_text(summary, None)
        # A listing needs only the statements' models, not the whole body's data.
        data = self.__dict__.get("page_data") or PageData(page=self, as_of=self.held_as_of)
        return checked_plain_text(summary, data)

    def has_og_image(self):
        """Whether the article has a lead chart for og:image (from the stored body alone: no query)."""
        from .og_image import has_image

        return has_image(self)

    def og_image_meta(self):
        """{url, alt, width, height} of the Open Graph image (articles/og_image.py), or None."""
        from .og_image import meta

        return meta(self)

    def dataset_json_ld(self):
        """schema.org Dataset for the figures this page prints (articles/dataset_ld.py)."""
        from .dataset_ld import dataset_json_ld

        return dataset_json_ld(self)

    def shows_demo_data(self):
        """Whether any figure or listed source is demo data (the page then says so, and how it is dated)."""
        sources = list(self.page_data.sources_shown().values()) + list(self.page_data.page_sources)
        return any(source.is_demo for source in sources)

    def attribution_sources(self):
        """The sources whose attribution lines attributions() prints, one per line (the template marks
        a line shown in English on /es/ with lang="en")."""
        seen = {}
        for source in self.page_data.sources_shown().values():
            if source.attribution and source.attribution not in seen:
                seen[source.attribution] = source
        return list(seen.values())

    def attributions(self):
        """Attribution lines the sources shown on this page require (e.g. Artificial Analysis)."""
        seen = []
        for source in self.page_data.sources_shown().values():
            if source.attribution and source.attribution not in seen:
                seen.append(source.attribution)
        return seen


class ArticleSource(Orderable):
    page = ParentalKey(ArticlePage, on_delete=models.CASCADE, related_name="page_sources")
    source = models.ForeignKey("benchmarks.Source", on_delete=models.PROTECT, related_name="+", verbose_name=_("source"))

    panels = [FieldPanel("source", widget=SourceChooser)]

    class Meta(Orderable.Meta):
        verbose_name = _("page source")
        constraints = [models.UniqueConstraint(fields=["page", "source"], name="article_source_once_per_page")]

    def save(self, *args, **kwargs):
        if skip_save(self, kwargs):
            return  # the stored row is the same (articles/source_rows.py)
        return super().save(*args, **kwargs)

    def __str__(self):
        return str(self.source)
