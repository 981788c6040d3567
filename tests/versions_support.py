"""Shared by the tests of citable versions (as-of addresses) and of the "Cite this page" box."""

import datetime
import re

from django.db.models import F
from django.utils import timezone
from wagtail.models import PageLogEntry

from articles.models import ArticlePage
from articles.versions import format_moment
from tests.figures_support import make_article, table
from tests.test_change_log import english_url, spanish_url


def published_hours_ago(page, hours):
    """The page's publications so far happened `hours` earlier (the log is what the route reads)."""
    PageLogEntry.objects.filter(page_id=page.pk).update(timestamp=F("timestamp") - datetime.timedelta(hours=hours))


def versioned_article(glm):
    """The GLM table article, published two hours ago: before its data (measured and published an hour ago)."""
    page = make_article([table(glm)], sources=[glm["source"], glm["pricing"]], title="GLM page")
    published_hours_ago(page, 2)
    return page


def as_of(page, moment, language="en"):
    base = english_url(page) if language == "en" else spanish_url(page)
    return f"{base}as-of/{format_moment(moment)}/"


def ago(**delta):
    return timezone.now() - datetime.timedelta(**delta)


def novita_first_chunk(text):
    """Novita AI's first-chunk time in the provider table (its row: output speed, then first chunk)."""
    row = text[text.index("Novita AI"):]
    return re.findall(r"\d+[.,]\d+", row)[1].replace(",", ".")


def publish_edit(page, **fields):
    """An editor's change of the page's own (English or shared) fields, published now."""
    page = ArticlePage.objects.get(pk=page.pk)
    for name, value in fields.items():
        setattr(page, name, value)
    page.save_revision().publish()
    return page
