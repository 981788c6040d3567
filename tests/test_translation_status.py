"""The admin's translation status, counted in segments: what has no approved Spanish, what translates
an older English, what Spanish readers see in English, and which translation drafts are open."""

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth.models import Group, Permission
from django.test import Client
from wagtail.models import Page

from benchmarks.models import Provider, Source
from editorial.models import TranslationDraft
from editorial.roles import EDITORS, TRANSLATORS
from editorial.spanish import memory_for
from editorial.workspace_views import workspace_url

from .bilingual_pages import build_small_site, paragraphs, publish_article
from .factories import EndpointFactory

STATUS_URL = "/admin/translation-status/"


@pytest.fixture
def small_site(db):
    return build_small_site()


def _client_in(django_user_model, username, group):
    user = django_user_model.objects.create_user(username, f"{username}@example.com", "pw-not-used-123")
    if group:
        user.groups.add(Group.objects.get(name=group))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def translator_client(db, django_user_model):
    return _client_in(django_user_model, "traductor", TRANSLATORS)


@pytest.fixture
def editor_client_in_group(db, django_user_model):
    return _client_in(django_user_model, "editor-group", EDITORS)


def _soup(client, query=""):
    response = client.get(STATUS_URL + query)
    assert response.status_code == 200
    return BeautifulSoup(response.text, "html.parser")


def _rows(client, query=""):
    """{data-object: row facts} of the status table."""
    rows = {}
    for tr in _soup(client, query).select("table.translation-status tbody tr"):
        rows[tr["data-object"]] = {
            "missing": int(tr["data-missing"]),
            "outdated": int(tr["data-outdated"]),
            "shown": int(tr["data-english-shown"]),
            "draft": tr["data-draft"],
            "text": " ".join(tr.get_text(" ").split()),
            "translate": tr.select_one("a.button.translate"),
            "review": tr.select_one("a.button.review"),
        }
    return rows


def _key(obj):
    return f"{obj._meta.model_name}:{obj.pk}"


def _publish_english(page, body=None, **values):
    """Publish an editor's English change; `body` edits the live English body's raw blocks in place."""
    page = Page.objects.get(pk=page.pk).specific
    if body is not None:
        raw = [dict(block) for block in page.body_en.raw_data]
        body(raw)
        page.body_en = raw
    for name, value in values.items():
        setattr(page, name, value)
    page.save_revision().publish()
    return Page.objects.get(pk=page.pk).specific


def test_translators_and_editors_see_the_status_menu_and_view_others_do_not(
    small_site, translator_client, editor_client_in_group, django_user_model
):
    for client in (translator_client, editor_client_in_group):
        assert client.get(STATUS_URL).status_code == 200
        assert "Translation status" in client.get("/admin/").text
    outsider = django_user_model.objects.create_user("outsider", "o@example.com", "pw-not-used-123")
    outsider.user_permissions.add(Permission.objects.get(codename="access_admin"))
    client = Client()
    client.force_login(outsider)
    assert "Translation status" not in client.get("/admin/").text
    response = client.get(STATUS_URL)
    assert response.status_code in (302, 403) and "Translation status" not in response.text


def test_untranslated_article_lists_its_missing_segments_with_a_translate_link(small_site, translator_client):
    untranslated = publish_article(
        small_site,
        "untranslated",
        title_en="Only in English",
        title_es="Solo en inglés",
        body_en=paragraphs("First English paragraph.", "Second English paragraph."),
    )
    rows = _rows(translator_client)
    assert _key(Page.objects.get(slug_en="guide").specific) not in rows
    assert _key(small_site.specific) not in rows
    row = rows[_key(untranslated)]
    # The Spanish slug and both paragraphs; the title has Spanish. A body without any Spanish is no
    # Spanish version at all, so nothing is shown in English.
    assert (row["missing"], row["outdated"], row["shown"], row["draft"]) == (3, 0, 0, "")
    assert "Only in English" in row["text"]
    assert row["translate"].get_text(strip=True) == "Translate"
    assert row["translate"]["href"] == workspace_url(untranslated)
    assert row["review"] is None


def test_english_publish_makes_segments_outdated_and_new_blocks_show_english(
    small_site, translator_client, settings
):
    guide = Page.objects.get(slug_en="guide").specific

    def edit(raw):
        raw[0]["value"] = "<p>Every figure has a dated source.</p>"
        raw.append({"type": "paragraph", "value": "<p>A new English paragraph.</p>"})

    guide = _publish_english(guide, body=edit)
    row = _rows(translator_client)[_key(guide)]
    assert (row["missing"], row["outdated"], row["shown"]) == (1, 1, 1)
    # What the status counts is what a Spanish reader gets: the new paragraph in English.
    assert "A new English paragraph." in str(guide.body_es.raw_data)

    settings.TRANSLATION_SEGMENT_FALLBACK = False
    soup = _soup(translator_client)
    assert "English shown" not in soup.select_one("table.translation-status thead").get_text()
    assert _rows(translator_client)[_key(guide)]["shown"] == 0
    settings.TRANSLATION_SEGMENT_FALLBACK = True

    # Reverting the English makes the approved Spanish right again.
    def revert(raw):
        raw[0]["value"] = "<p>Every figure has a source.</p>"

    _publish_english(guide, body=revert)
    row = _rows(translator_client)[_key(guide)]
    assert (row["missing"], row["outdated"], row["shown"]) == (1, 0, 1)


def test_an_unpublished_english_draft_does_not_count_until_it_is_published(small_site, translator_client):
    guide = Page.objects.get(slug_en="guide").specific
    guide.title_en = "Reading the tables, revised"
    guide.save_revision()
    assert _key(guide) not in _rows(translator_client)
    Page.objects.get(pk=guide.pk).specific.get_latest_revision().publish()
    assert _rows(translator_client)[_key(guide)]["outdated"] == 1


def test_snippets_missing_or_outdated_spanish(db, translator_client):
    provider = Provider.objects.create(name="Acme", slug="acme", description_en="Fast GPUs.", description_es="")
    done = Provider.objects.create(name="Beta", slug="beta", description_en="Cheap.", description_es="Barato.")
    source = Source.objects.create(
        title_en="Provider benchmarks", title_es="Benchmarks de proveedores", publisher="AA", url="https://example.com/"
    )
    rows = _rows(translator_client)
    assert rows[_key(provider)]["missing"] == 1
    assert _key(done) not in rows and _key(source) not in rows

    source.attribution_en = "Data: AA"
    source.save()
    assert (_rows(translator_client)[_key(source)]["missing"]) == 1

    memory_for(done)  # its memory holds the Spanish written for "Cheap."
    done.description_en = "Cheapest per token."
    done.save()
    row = _rows(translator_client)[_key(done)]
    assert (row["missing"], row["outdated"]) == (0, 1)


def test_open_drafts_and_reviews(small_site, translator_client, editor_client_in_group):
    guide = Page.objects.get(slug_en="guide").specific
    untranslated = publish_article(small_site, "untranslated", title_en="Only in English", body_en=paragraphs("One."))
    TranslationDraft.objects.create(memory=memory_for(untranslated), status=TranslationDraft.Status.SUBMITTED)
    TranslationDraft.objects.create(memory=memory_for(guide), status=TranslationDraft.Status.EDITING)

    rows = _rows(translator_client)
    # Complete Spanish, but a translator is at work on it.
    assert (rows[_key(guide)]["missing"], rows[_key(guide)]["draft"]) == (0, "editing")
    assert "Being translated" in rows[_key(guide)]["text"]
    row = rows[_key(untranslated)]
    assert row["draft"] == "submitted" and "Awaiting review" in row["text"]
    assert row["review"] is None  # translators do not approve

    row = _rows(editor_client_in_group)[_key(untranslated)]
    assert row["review"]["href"] == workspace_url(untranslated, "editorial_workspace_review")
    assert _rows(editor_client_in_group)[_key(guide)]["review"] is None


def test_filters_and_empty_states(small_site, translator_client):
    soup = _soup(translator_client)
    assert not soup.select("table.translation-status")
    assert "up-to-date Spanish" in soup.select_one(".translation-status-empty").get_text()

    guide = Page.objects.get(slug_en="guide").specific
    guide = _publish_english(guide, summary_en="What each column of the tables means.")
    missing = Provider.objects.create(name="Acme", slug="acme", description_en="Fast GPUs.")
    review = publish_article(small_site, "review", title_en="In review", title_es="En revisión", slug_es="en-revision")
    TranslationDraft.objects.create(memory=memory_for(review), status=TranslationDraft.Status.SUBMITTED)

    assert set(_rows(translator_client)) == {_key(guide), _key(missing), _key(review)}
    assert set(_rows(translator_client, "?status=missing")) == {_key(missing)}
    assert set(_rows(translator_client, "?status=outdated")) == {_key(guide)}
    assert set(_rows(translator_client, "?status=review")) == {_key(review)}
    assert set(_rows(translator_client, "?status=nonsense")) == {_key(guide), _key(missing), _key(review)}
    # Up to date and everything: a typo in published Spanish is fixed from here too.
    everything = _rows(translator_client, "?status=all")
    up_to_date = _rows(translator_client, "?status=up_to_date")
    assert set(everything) == set(up_to_date) | {_key(guide), _key(missing), _key(review)}
    assert _key(small_site.specific) in up_to_date and not set(up_to_date) & {_key(guide), _key(missing), _key(review)}
    assert up_to_date[_key(small_site.specific)]["translate"]["href"] == workspace_url(small_site.specific)
    buttons = {a["data-filter"]: a.get_text(strip=True) for a in _soup(translator_client).select("[data-filter]")}
    assert buttons == {
        "needs_work": "Needs work (3)", "missing": "Missing (1)", "outdated": "Outdated (1)",
        "review": "Awaiting review (1)", "up_to_date": f"Up to date ({len(everything) - 3})", "all": f"All ({len(everything)})",
    }

    TranslationDraft.objects.all().delete()
    soup = _soup(translator_client, "?status=review")
    assert not soup.select("table.translation-status")
    assert "No item has this status." in soup.select_one(".translation-status-empty").get_text()


@pytest.mark.parametrize("articles", [2, 10])
def test_status_view_query_count_does_not_grow_with_content(
    small_site, translator_client, django_assert_max_num_queries, articles
):
    for i in range(articles):
        page = publish_article(
            small_site, f"extra-{i}", title_en=f"Extra {i}", body_en=paragraphs("English only.", "More.")
        )
        provider = Provider.objects.create(name=f"P{i}", slug=f"p{i}", description_en="English only.")
        # An endpoint's display label is translated too; its name on the page reads provider and model.
        EndpointFactory(provider=provider, display_label_en=f"P{i} Pro")
        if i % 2:  # half with a memory and an open draft, half read from their rows
            TranslationDraft.objects.create(memory=memory_for(page))
            memory_for(provider)
    translator_client.get(STATUS_URL)  # warm per-process caches (content types, site root paths)
    # 8 for the session, user, permissions and admin menu; 9 for the status: one per translated model
    # (6), then every memory, approved segment and open draft.
    with django_assert_max_num_queries(17):
        rows = _rows(translator_client)
    assert sum(1 for key in rows if key.startswith("articlepage:")) == articles
    assert sum(1 for key in rows if key.startswith("provider:")) == articles
