"""Posting an admin upload form and reading the upload's progress page."""

from django.test import TestCase


def post_upload(client, url, data):
    """POST the form; the import task runs (eagerly in tests) once the Upload row commits, as a worker would
    after the request. Returns the progress page the request redirected to."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return client.get(response["Location"])
