"""Admin hooks of the articles app, split by concern."""

from wagtail import hooks

from benchmarks.ingest.affected_pages import PAGES_SHOWING_DATA_HOOK

from .blocks.choosers import share_lookups_until_the_request_ends
from .datarefs import hooks as _datarefs_hooks  # noqa: F401
from .dependencies import article_dependencies
from .statements import hooks as _statements_hooks  # noqa: F401

# The refresh admin asks which articles a change affects; articles answer from their blocks.
hooks.register(PAGES_SHOWING_DATA_HOOK, article_dependencies)

# The editor's form shows every chosen model and source of both bodies: each is loaded once.
hooks.register("before_edit_page", share_lookups_until_the_request_ends)
