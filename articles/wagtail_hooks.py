"""Admin hooks of the articles app, split by concern."""

from .datarefs import hooks as _datarefs_hooks  # noqa: F401
