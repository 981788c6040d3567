"""Files uploaded for import, kept in the "uploads" storage that the web processes and the workers share."""

from django.core.files.storage import storages


def uploads_storage():
    """The storage the web processes and the workers share (settings.STORAGES["uploads"])."""
    return storages["uploads"]
