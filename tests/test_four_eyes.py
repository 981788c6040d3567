"""Four eyes (settings.FOUR_EYES_APPROVAL, on in production): a translation is approved, and a draft of
data is published, only by someone other than who prepared it. Off, one person may do both (as on a
development laptop)."""

import re
import subprocess
import sys

import pytest

from benchmarks.models import Snapshot
from editorial.models import TranslationDraft
from editorial.roles import EDITORS, TRANSLATORS

from .bilingual_pages import build_small_site
from .data_admin_support import (
    current_rows,
    endpoints_fixture,  # noqa: F401  (the endpoints fixture)
    published_fixture,  # noqa: F401  (the published fixture)
    snapshot_form_data,
    url,
)
from .test_settings import GOOD_KEY, ROOT
from .workspace_support import logged_in, member, review, review_url, translate

pytestmark = pytest.mark.django_db

REFUSED_TRANSLATION = "someone else must approve it (four eyes)"
REFUSED_DATA = "someone else must publish it (four eyes)"


@pytest.fixture
def four_eyes(settings):
    settings.FOUR_EYES_APPROVAL = True


@pytest.fixture
def guide():
    from articles.models import ArticlePage

    build_small_site()
    return ArticlePage.objects.get(slug_en="guide")


def editor_named(django_user_model, name):
    return logged_in(member(django_user_model, name, EDITORS))


def body_key(page):
    return f"body/{page.body_en.raw_data[0]['id']}"


def test_an_editor_cannot_approve_the_translation_he_submitted(client, four_eyes, guide, django_user_model):
    author = editor_named(django_user_model, "autor")
    before = client.get("/es/guia/").text
    assert translate(author, guide, {"title": "Guía propia"}, action="submit").status_code == 302

    page = author.get(review_url(guide))
    assert REFUSED_TRANSLATION in page.text and 'value="approve"' not in page.text
    response = review(author, guide)
    assert response.status_code == 302
    messages = [str(message) for message in response.wsgi_request._messages]
    assert any(REFUSED_TRANSLATION in message for message in messages)
    assert TranslationDraft.objects.get().status == TranslationDraft.Status.SUBMITTED
    assert client.get("/es/guia/").text == before

    other = editor_named(django_user_model, "revisora")
    assert 'value="approve"' in other.get(review_url(guide)).text
    assert review(other, guide).status_code == 302
    assert TranslationDraft.objects.get().status == TranslationDraft.Status.APPROVED
    assert "Guía propia" in client.get("/es/guia/").text


def test_an_editor_who_wrote_part_of_a_draft_cannot_approve_it(four_eyes, guide, django_user_model):
    writer = editor_named(django_user_model, "escritor")
    translator = logged_in(member(django_user_model, "traductora", TRANSLATORS))
    assert translate(writer, guide, {"title": "Guía escrita"}).status_code == 302
    assert translate(translator, guide, {body_key(guide): "<p>Cuerpo.</p>"}, action="submit").status_code == 302
    review(writer, guide)
    assert TranslationDraft.objects.get().status == TranslationDraft.Status.SUBMITTED
    assert review(editor_named(django_user_model, "tercera"), guide).status_code == 302
    assert TranslationDraft.objects.get().status == TranslationDraft.Status.APPROVED


def test_without_four_eyes_one_person_may_submit_and_approve(settings, guide, django_user_model):
    settings.FOUR_EYES_APPROVAL = False
    author = editor_named(django_user_model, "autor")
    assert translate(author, guide, {"title": "Guía propia"}, action="submit").status_code == 302
    assert review(author, guide).status_code == 302
    assert TranslationDraft.objects.get().status == TranslationDraft.Status.APPROVED


def test_the_editor_who_prepared_a_correction_cannot_publish_it(four_eyes, published, endpoints, django_user_model):
    preparer = editor_named(django_user_model, "preparador")
    preparer.post(url("snapshot", "correct", published.pk))
    correction = Snapshot.objects.get(supersedes=published)
    rows = [(m, endpoint, metric, "199.5" if metric == "output_speed_median" else value)
            for m, endpoint, metric, value in current_rows(correction)]
    assert preparer.post(url("snapshot", "edit", correction.pk), snapshot_form_data(correction, rows)).status_code == 302
    correction.refresh_from_db()
    assert correction.prepared_by_user_id is not None

    confirm = preparer.get(url("snapshot", "publish", correction.pk))
    assert REFUSED_DATA in confirm.text and "Yes, publish" not in confirm.text
    preparer.post(url("snapshot", "publish", correction.pk), {"correction_note": "Wrong row."})
    correction.refresh_from_db()
    published.refresh_from_db()
    assert (correction.status, published.status) == (Snapshot.Status.DRAFT, Snapshot.Status.PUBLISHED)

    reviewer = editor_named(django_user_model, "revisor")
    response = reviewer.post(url("snapshot", "publish", correction.pk), {"correction_note": "Wrong row."})
    assert response.status_code == 302
    correction.refresh_from_db()
    assert correction.status == Snapshot.Status.PUBLISHED


def test_a_held_refresh_nobody_prepared_by_hand_may_be_published_by_any_editor(four_eyes, endpoints,
                                                                               django_user_model):
    from .factories import MeasurementFactory, SnapshotFactory

    held = SnapshotFactory(status=Snapshot.Status.DRAFT, review_notes="A price rose by 40 %.")
    MeasurementFactory(snapshot=held, endpoint=endpoints["fw_glm"])
    assert held.prepared_by_user_id is None
    editor = editor_named(django_user_model, "editora")
    assert editor.post(url("snapshot", "publish", held.pk)).status_code == 302
    held.refresh_from_db()
    assert held.status == Snapshot.Status.PUBLISHED


def test_four_eyes_is_on_in_production_unless_turned_off():
    def setting(**env):
        code = (
            "import django, os; from django.conf import settings; django.setup(); "
            "print(settings.FOUR_EYES_APPROVAL)"
        )
        base = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings.production",
                "SECRET_KEY": GOOD_KEY, "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
                "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0", "REDIS_URL": "redis://127.0.0.1:6379/0",
                "ALLOWED_HOSTS": "bench.example.com", **env}
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    assert setting() == "True"
    assert setting(FOUR_EYES_APPROVAL="0") == "False"


def test_an_editor_who_changed_a_draft_price_cannot_publish_its_price_list(four_eyes, endpoints, django_user_model):
    from .admin_forms import form_data
    from .factories import PriceFactory, SnapshotFactory, SourceFactory

    price_list = SourceFactory(kind="price_list", publisher="Fireworks")
    draft = SnapshotFactory(source=price_list, status=Snapshot.Status.DRAFT)
    price = PriceFactory(endpoint=endpoints["fw_glm"], source=price_list, snapshot=draft)
    editor = editor_named(django_user_model, "precios")
    edit = url("price", "edit", price.pk)
    page = editor.get(edit).text
    [form_id] = re.findall(r'<form[^>]*id="([^"]+)"[^>]*method="POST"', page)
    data = form_data(page, form_id)
    data["output_per_m"] = "4.90"
    assert editor.post(edit, data).status_code == 302
    draft.refresh_from_db()
    assert draft.prepared_by_user_id is not None
    editor.post(url("snapshot", "publish", draft.pk))
    draft.refresh_from_db()
    assert draft.status == Snapshot.Status.DRAFT
    assert editor_named(django_user_model, "otra").post(url("snapshot", "publish", draft.pk)).status_code == 302
    draft.refresh_from_db()
    assert draft.status == Snapshot.Status.PUBLISHED
