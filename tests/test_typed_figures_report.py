"""The "Figures typed in prose" report reads what the worker stored for each article's latest
revision: opening it never runs the check, and costs the same queries for 3 articles as for 13."""

import socket
from html import escape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import articles.figure_check
from config.cache_backend import redis_cache
from reviews import tasks
from reviews.models import TypedFigureCheck
from tests.figures_support import glm_data, make_article, paragraph, table

pytestmark = pytest.mark.django_db

REPORT = "/admin/reviews/typed-figures/"
REPORT_QUERIES = 10  # measured: 8 at 3 articles and at 13 (session, user, menus; 2 for the report itself)


@pytest.fixture
def glm():
    return glm_data()


def articles_with(glm, typed, clean=0):
    pages = [
        make_article(
            [table(glm), paragraph(f"<p>Leads at 283.4 tokens/s ({n}).</p>")],
            body_es=[table(glm), paragraph("<p>Lidera con 164.3 tokens/s.</p>")],
            sources=[glm["source"]],
            title=f"Typed {n}",
        )
        for n in range(typed)
    ]
    pages += [
        make_article(
            [table(glm), paragraph("<p>No figure typed.</p>")], sources=[glm["source"]], title=f"Clean {n}"
        )
        for n in range(clean)
    ]
    return pages


def run_checks(pages, language="en"):
    """What the worker does for the revisions the editors opened."""
    for page in pages:
        tasks.check_typed_figures(page.latest_revision_id, language)


@pytest.fixture
def queued(monkeypatch):
    calls = []
    monkeypatch.setattr(tasks.check_typed_figures, "delay", lambda *args: calls.append(args))
    return calls


def report_queries(client):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(REPORT)
    assert response.status_code == 200
    return response.content.decode(), len(ctx.captured_queries)


def test_the_report_reads_stored_findings_in_constant_queries(
    editor_client, glm, checks, django_assert_max_num_queries
):
    small = articles_with(glm, typed=2, clean=1)
    run_checks(small)
    expected = articles.figure_check.check_page(small[0].get_latest_revision_as_object())
    editor_client.get(REPORT)  # sessions, menus
    checks.clear()

    with django_assert_max_num_queries(REPORT_QUERIES):
        text, few = report_queries(editor_client)
    for page in small[:2]:
        assert f'data-page="{page.pk}"' in text and f"/admin/pages/{page.pk}/edit/" in text
    assert f'data-page="{small[2].pk}"' not in text and "being checked" not in text
    assert "4 typed figures found." in text  # 283.4 (EN) and 164.3 (ES) on each typed page
    for finding in expected:  # what the live check showed, cell by cell
        assert f"<strong>{escape(finding.typed)}</strong>" in text
        assert f"<td>{escape(finding.place)}</td>" in text
        assert f"<td>{escape('; '.join(finding.figures))}</td>" in text
        assert escape(finding.context) in text

    assert checks == [], "the GET read what was stored"

    run_checks(articles_with(glm, typed=5, clean=5))
    checks.clear()
    with django_assert_max_num_queries(REPORT_QUERIES):
        text, many = report_queries(editor_client)
    assert "14 typed figures found." in text
    assert few == many and checks == [], (few, many)


def test_with_nothing_stored_the_report_queues_each_article_once_and_shows_it_pending(
    editor_client, glm, queued, checks
):
    pages = articles_with(glm, typed=1, clean=1)
    text = editor_client.get(REPORT).content.decode()
    assert sorted(queued) == sorted((page.latest_revision_id, "en") for page in pages)
    assert "2 articles are being checked" in text
    for page in pages:
        assert f'data-pending-page="{page.pk}"' in text
    assert "typed figures found" not in text and "No article prose repeats" not in text

    assert "2 articles are being checked" in editor_client.get(REPORT).content.decode()
    assert len(queued) == 2 and checks == [], "pending checks are not queued again, nor run on GET"

    for args in queued:  # the worker
        tasks.check_typed_figures(*args)
    checks.clear()
    text = editor_client.get(REPORT).content.decode()
    assert "being checked" not in text and f'data-page="{pages[0].pk}"' in text
    assert f'data-page="{pages[1].pk}"' not in text and len(queued) == 2 and checks == []


def test_an_edited_article_is_checked_again_and_its_old_findings_go(editor_client, glm, queued):
    (page,) = articles_with(glm, typed=1)
    run_checks([page])
    old_revision = page.latest_revision_id
    page.save_revision()
    text = editor_client.get(REPORT).content.decode()
    assert queued == [(page.latest_revision_id, "en")] and f'data-pending-page="{page.pk}"' in text

    run_checks([page.__class__.objects.get(pk=page.pk)])
    assert list(TypedFigureCheck.objects.values_list("revision_id", flat=True)) == [page.latest_revision_id]
    assert old_revision != page.latest_revision_id


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_report_survives_a_cache_outage(editor_client, glm, settings, queued, checks):
    checked, unchecked = articles_with(glm, typed=2)
    run_checks([checked])  # stored before the outage
    checks.clear()
    # Nothing listens on that port: every cache call fails, as when Redis is down.
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{free_port()}/0", "outage")}

    response = editor_client.get(REPORT)
    assert response.status_code == 200
    text = response.content.decode()
    assert f'data-page="{checked.pk}"' in text and "<strong>283.4</strong>" in text
    assert f'data-pending-page="{unchecked.pk}"' in text and queued == [] and checks == []


def test_a_spanish_admin_reads_and_queues_the_checks_described_in_spanish(
    client, django_user_model, glm, queued, checks
):
    from wagtail.users.models import UserProfile

    user = django_user_model.objects.create_superuser("ana", "ana@example.com", "pw-ana-123456")
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "es"
    profile.save()
    client.force_login(user)
    checked, unchecked = articles_with(glm, typed=2)
    run_checks([checked], language="es")
    run_checks([unchecked], language="en")  # an English editor's check is not the Spanish one
    checks.clear()

    text = client.get(REPORT).content.decode()
    assert queued == [(unchecked.latest_revision_id, "es")] and checks == []
    assert f'data-page="{checked.pk}"' in text and f'data-pending-page="{unchecked.pk}"' in text
    assert "<td>Párrafo (bloque 2)</td>" in text and "<strong>283.4</strong>" in text
