from django.db import models
from django.utils.translation import gettext_lazy as _
from wagtail.admin.panels import FieldPanel
from wagtail.fields import RichTextField, StreamField
from wagtail.models import Page

from .blocks import ArticleBodyBlock


class HomePage(Page):
    intro = RichTextField(_("intro"), blank=True)

    content_panels = Page.content_panels + [FieldPanel("intro")]
    subpage_types = ["articles.ArticlePage"]
    max_count = 1

    class Meta:
        verbose_name = _("home page")

    def get_context(self, request, *args, **kwargs):
        context = super().get_context(request, *args, **kwargs)
        context["articles"] = ArticlePage.objects.child_of(self).live().public().order_by("-first_published_at")
        return context


class ArticlePage(Page):
    summary = models.TextField(_("summary"), blank=True)
    body = StreamField(ArticleBodyBlock(), blank=True, verbose_name=_("body"))

    content_panels = Page.content_panels + [FieldPanel("summary"), FieldPanel("body")]
    parent_page_types = ["articles.HomePage"]
    subpage_types = []

    class Meta:
        verbose_name = _("article")
