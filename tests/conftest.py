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
