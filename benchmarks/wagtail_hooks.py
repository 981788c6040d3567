"""Admin registration is split by concern (see benchmarks/admin/); importing the modules registers
their viewsets and hooks."""

from .admin import data_changed, menu, refresh_actions, refresh_settings  # noqa: F401
