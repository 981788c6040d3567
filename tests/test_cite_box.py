"""The "Cite this page" box (issue 25): on the current article and on an archived version, the
permanent address of the version being read, its date, and APA-like and BibTeX citations in a
<details> that works without JavaScript. The current page names the newest change it shows, so a
Spanish-only publication leaves the English page's box as it was."""

import datetime
import re
import time
from decimal import Decimal

import pytest
from django.core.cache import cache

from benchmarks.models import Price
from tests.figures_support import glm_data, publish_correction
from tests.test_change_log import english_url, spanish_url, text_of
from tests.versions_support import ago, as_of, novita_first_chunk, versioned_article
from tests.workspace_support import approve_spanish

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


@pytest.fixture
def glm():
    return glm_data()


@pytest.fixture
def article(glm):
    return versioned_article(glm)


def cite_box(html):
    return re.search(r'<section class="cite-box".*?</section>', html, re.S).group(0)


def test_the_cite_box_gives_the_address_date_and_ready_citations(client, article):
    t0 = ago(minutes=30)
    archived = cite_box(client.get(as_of(article, t0)).text)
    address = f"http://testserver{as_of(article, t0)}"  # the reader's origin (articles/addresses.py)
    assert f'<a class="cite-url" href="{address}">{address}</a>' in archived
    second = t0.replace(microsecond=0)
    assert f'<time class="cite-version" datetime="{second:%Y-%m-%dT%H:%M:%S}Z">' in archived
    assert "<details" in archived and "<summary>" in archived  # works without JavaScript
    apa = re.search(r'<p class="cite-apa">(.*?)</p>', archived, re.S).group(1)
    assert "GLM page" in apa and address in apa and f"{second:%Y}, {second:%B} {second.day}" in apa
    bibtex = re.sub(r"<[^>]+>", "", re.search(r'<pre class="cite-bibtex"><code>(.*?)</code>', archived, re.S).group(1))
    assert "title = {{GLM page}}" in bibtex and f"url = {{{address}}}" in bibtex
    assert f"urldate = {{{second:%Y-%m-%d}}}" in bibtex and f"year = {{{second:%Y}}}" in bibtex

    # The current page names the version it shows: opening that address shows the same figures.
    current = client.get(english_url(article))
    url = re.search(r'<a class="cite-url" href="([^"]+)"', cite_box(current.text)).group(1)
    time.sleep(1.1)  # its second must be over before the address answers
    assert novita_first_chunk(text_of(client.get(url.removeprefix("http://testserver")))) == "2.51"


def test_the_current_page_cites_the_newest_change_it_shows(client, glm, article):
    def cited(language="en"):
        cache.clear()
        page = english_url(article) if language == "en" else spanish_url(article)
        html = client.get(page).text
        return re.search(r'datetime="([^"]+)"', cite_box(html)).group(1)

    # The data came after the page: the snapshot, and the prices an editor typed (the newer).
    typed = max(Price.objects.filter(snapshot__isnull=True).values_list("created_at", flat=True))
    data_changed = max(glm["snapshot"].published_at, typed).replace(microsecond=0)
    assert cited() == f"{data_changed:%Y-%m-%dT%H:%M:%S}Z"
    correction = publish_correction(glm["snapshot"], {(glm["novita"].pk, "ttfc_median"): Decimal("2.01")})
    assert cited() == f"{correction.published_at.replace(microsecond=0):%Y-%m-%dT%H:%M:%S}Z"
    english, spanish = cited(), cited("es")
    # Only the Spanish is published again (a second later): the English page still names the same version.
    time.sleep(1.1)
    approve_spanish(article, {"title": "Página GLM, reescrita"})
    assert cited() == english and cited("es") != spanish


def test_publishing_through_the_edit_form_without_changes_keeps_the_cited_version(client, demo_site,
                                                                                  django_user_model):
    """The form stores the same content in another shape (list items with ids, data-block-key, empty
    fields of newer block versions): readers see the same page, so the box names the same version."""
    from articles.models import ArticlePage
    from editorial.roles import EDITORS
    from tests.workspace_support import logged_in, member, post_page_editor

    def cited(address):
        cache.clear()
        return re.search(r'<a class="cite-url" href="([^"]+)"', cite_box(client.get(address).text)).group(1)

    page = ArticlePage.objects.get(slug_en="fastest-llm-api")
    before = cited("/en/fastest-llm-api/"), cited("/es/api-llm-mas-rapida/")
    time.sleep(1.1)  # a new version would name a later second
    editor = logged_in(member(django_user_model, "editora", EDITORS))
    assert post_page_editor(editor, page, "action-publish").status_code == 302
    assert ArticlePage.objects.get(pk=page.pk).live_revision_id != page.live_revision_id
    assert (cited("/en/fastest-llm-api/"), cited("/es/api-llm-mas-rapida/")) == before


def test_when_a_version_went_live_is_worked_out_once_per_publication(client, article):
    """Working it out loads whole revisions; it is kept under the newest publication, so later
    renders read one row, and a new publication (a new log entry) works it out again."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from articles.live_since import LanguageLiveSince
    from tests.versions_support import publish_edit

    def render():
        cache.clear()
        with CaptureQueriesContext(connection) as ctx:
            html = client.get(english_url(article)).text
        loaded = [q for q in ctx.captured_queries if '"wagtailcore_revision"."content"' in q["sql"]]
        return re.search(r'datetime="([^"]+)"', cite_box(html)).group(1), len(loaded)

    first, loaded = render()
    assert loaded >= 1
    assert render() == (first, 0)
    time.sleep(1.1)  # the new version names a later second
    publish_edit(article, title_en="GLM page, retitled")
    second, loaded = render()
    assert loaded >= 1 and second > first
    assert LanguageLiveSince.objects.filter(page=article, language="en").count() == 1  # the older answer went


def test_a_page_whose_trend_rolls_with_the_clock_cites_the_moment_it_was_rendered(client, glm):
    """A trend of the last N days changes as points leave its range, with no new data: the moment of the
    last data change would show points the page no longer shows (4 more on the demo after 12 hours)."""
    from tests.figures_support import make_article

    trend = {"type": "trend_chart", "value": {
        "model": glm["model"].pk, "source": glm["source"].pk, "metric": "output_speed_median", "days": 7,
        "start_date": None, "end_date": None, "name_style": "short", "note": "", "caption_en": ""}}
    page = make_article([trend], sources=[glm["source"]])
    time.sleep(1.1)  # the publication's second is over: the old answer (the page's last change) is earlier
    before = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    html = client.get(english_url(page)).text
    after = datetime.datetime.now(datetime.UTC)
    cited = datetime.datetime.fromisoformat(re.search(r'datetime="([^"]+)"', cite_box(html)).group(1))
    assert before <= cited <= after, (before, cited, after)
    assert cited > glm["snapshot"].published_at  # not the last data change
