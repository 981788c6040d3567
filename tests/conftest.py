import os
import shutil

import pytest


@pytest.fixture
def demo_site(db):
    """The bilingual demo site as `make run` loads it."""
    from articles.demo import load_demo_site

    load_demo_site()
    from articles.models import HomePage

    return HomePage.objects.get()


@pytest.fixture
def editor_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("editor", "editor@example.com", "pw-editor-123")
    client.force_login(user)
    return client


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Like `make run`: fill the *_en columns of Wagtail's own pages after migrating."""
    from django.core.management import call_command

    with django_db_blocker.unblock():
        call_command("update_translation_fields", verbosity=0)


@pytest.fixture(autouse=True)
def english_by_default():
    """A request to /es/ leaves Spanish active in the thread; each test starts in English."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture
def checks(monkeypatch):
    """The pages the typed-figure check itself ran on, in order (it still runs, for the worker)."""
    import articles.figure_check

    calls = []
    real = articles.figure_check.check_page

    def counted(page, languages=None):
        calls.append(page.pk)
        return real(page, languages)

    monkeypatch.setattr(articles.figure_check, "check_page", counted)
    return calls


@pytest.fixture(scope="session", autouse=True)
def uploads_scratch_folder():
    """The uploads storage of this run (config/settings/test.py) goes when the run ends."""
    yield
    from django.conf import settings

    if settings.UPLOADS_DIR.endswith(f"llmbench-test-uploads-{os.getpid()}"):
        shutil.rmtree(settings.UPLOADS_DIR, ignore_errors=True)
