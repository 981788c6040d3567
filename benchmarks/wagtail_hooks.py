"""Admin registration is split by concern; importing the modules registers their hooks."""

from . import data_admin, refresh_admin  # noqa: F401
