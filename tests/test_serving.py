"""Production serving: static files from WhiteNoise, gzip only for anonymous responses (BREACH),
a Content-Security-Policy on pages (strict) and admin, proxy TLS header only when asked for."""

import gzip
import os
import subprocess
import sys

import pytest

from .test_settings import GOOD_KEY, PRODUCTION_VARIABLES, ROOT

pytestmark = pytest.mark.django_db


def test_static_files_are_served_by_the_application(client):
    response = client.get("/static/css/site.css")
    assert response.status_code == 200
    assert b"{" in b"".join(response.streaming_content)


def test_anonymous_responses_are_gzipped_the_admin_is_not(client, editor_client, demo_site):
    from django.test import Client

    reader = Client()
    sitemap = reader.get("/sitemap.xml", headers={"accept-encoding": "gzip"})
    assert sitemap["Content-Encoding"] == "gzip" and b"<urlset" in gzip.decompress(sitemap.content)
    admin = editor_client.get("/admin/", headers={"accept-encoding": "gzip"})
    assert admin.status_code == 200 and "Content-Encoding" not in admin
    page = editor_client.get("/en/", headers={"accept-encoding": "gzip"})
    assert "Content-Encoding" not in page  # a logged-in session's page holds a CSRF token


def test_pages_get_a_strict_policy_the_admin_its_exception(editor_client, demo_site):
    from django.test import Client

    public = Client().get("/en/fastest-llm-api/")["Content-Security-Policy"]
    assert "script-src 'self'" in public and "unsafe-inline" not in public.split("style-src-attr")[0]
    admin = editor_client.get("/admin/")["Content-Security-Policy"]
    assert "script-src 'self' 'unsafe-inline'" in admin


def production_setting(name, **env):
    base = {k: v for k, v in os.environ.items() if k not in PRODUCTION_VARIABLES | {"BEHIND_TLS_PROXY"}}
    base.update(
        DJANGO_SETTINGS_MODULE="config.settings.production", SECRET_KEY=GOOD_KEY, ALLOWED_HOSTS="x",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres", CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        REDIS_URL="redis://127.0.0.1:6379/0",
        **env,
    )
    code = f"import django; django.setup(); from django.conf import settings; print(repr(getattr(settings, {name!r}, None)))"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_proxy_tls_header_is_trusted_only_behind_a_proxy():
    assert production_setting("SECURE_PROXY_SSL_HEADER") == "None"
    assert production_setting("SECURE_PROXY_SSL_HEADER", BEHIND_TLS_PROXY="1") == "('HTTP_X_FORWARDED_PROTO', 'https')"
    assert production_setting("STORAGES").count("CompressedManifestStaticFilesStorage") == 1
    assert "'CONN_MAX_AGE': 600" in production_setting("DATABASES")
