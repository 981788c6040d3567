"""Headless Chromium (Debian's package) driven by Playwright against pytest-django's live server.

One browser for the browser tests; every page a test opens gets its own context (cookies, viewport),
closed when the test ends.
"""

import os
import shutil
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from .viewports import DESKTOP

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI containers run the tests as root
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
# Bounded waits: a step slower than this is a failure, not something to wait out.
ACTION_TIMEOUT_MS = 5_000
NAVIGATION_TIMEOUT_MS = 15_000
# Requests still running when a test ends hold row locks that would deadlock the database flush.
IN_FLIGHT_TIMEOUT_S = 30
# The site declares its icon, so no console error of any URL is excused.
IGNORED_CONSOLE_URLS = ()


@pytest.fixture(scope="session")
def chromium_path():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"Chromium is not installed (looked for {CHROMIUM}). The browser tests drive Debian's Chromium: "
            "run `apt-get install chromium chromium-driver` (`make test` does this) or set CHROMIUM_PATH.",
            pytrace=False,
        )
    return CHROMIUM


@pytest.fixture(scope="package")
def browser(chromium_path, django_db_setup, django_db_blocker):
    """One Chromium for all browser tests, running only while they run.

    Playwright's sync API keeps an event loop running in the test thread. Django then refuses ORM
    calls there (hence DJANGO_ALLOW_ASYNC_UNSAFE while the browser is up) and, treating the thread as
    async, opens other connection objects than the ones the test database was set up with. Those lack
    the snapshot of the migrated database that serialized rollback restores, so it is handed over.
    """
    from django.db import connections
    from playwright.sync_api import sync_playwright

    snapshots = {
        alias: connections[alias]._test_serialized_contents
        for alias in connections
        if hasattr(connections[alias], "_test_serialized_contents")
    }
    shutil.rmtree(SCREENSHOTS / "failures", ignore_errors=True)  # only this run's failures
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            for alias, contents in snapshots.items():
                connections[alias]._test_serialized_contents = contents
            chromium = playwright.chromium.launch(
                executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True
            )
            try:
                yield chromium
            finally:
                chromium.close()
                # The last test's flush left the database empty; later tests get it as migrated.
                with django_db_blocker.unblock():
                    for alias, contents in snapshots.items():
                        connections[alias].creation.deserialize_db_from_string(contents)
                    connections.close_all()  # the event-loop side connections, before the loop goes
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def site(live_server, django_db_serialized_rollback, settings):
    """The live server with the bilingual demo site loaded, as `make run` shows it.

    The live server needs committed data, so these tests run in transactional mode; its flush would
    also remove what migrations created (Wagtail's root page, the Translators group, the "Spanish
    review" workflow), which serialized rollback restores before each test.
    """
    from django.core.management import call_command
    from wagtail.signal_handlers import disable_reference_index_auto_update

    from articles.demo import load_demo_site

    # Wagtail 8 autosaves drafts in the background a moment after each keystroke; those saves would race
    # the Save/Publish/Submit clicks these tests make (the paths under test), so they are off here.
    settings.WAGTAIL_AUTOSAVE_INTERVAL = 0
    call_command("update_translation_fields", verbosity=0)
    # Wagtail's reference index ("usage" counts) is nothing these tests look at, and building it is
    # three quarters of the demo's load time; pages edited in the tests still index themselves.
    with disable_reference_index_auto_update():
        load_demo_site()
    return live_server


def _watch(page, origin):
    """Record console errors, uncaught exceptions, server errors and requests still running;
    refuse requests that would leave the live server."""
    page.console_errors = []
    page.server_errors = []
    page.external_requests = []
    page.in_flight = set()

    def on_console(message):
        url = (message.location or {}).get("url", "")
        if message.type == "error" and not (IGNORED_CONSOLE_URLS and urlsplit(url).path.endswith(IGNORED_CONSOLE_URLS)):
            page.console_errors.append(f"{message.text} ({url})")

    def on_response(response):
        if response.status >= 500:
            page.server_errors.append(f"{response.status} {response.request.method} {response.url}")

    def on_route(route):
        url = route.request.url
        if url.startswith((origin, "data:", "blob:", "about:")):
            route.continue_()
        else:
            # Tests may reach 127.0.0.1 only (the admin asks Gravatar and Wagtail's release feed).
            page.external_requests.append(url)
            route.abort()

    page.on("console", on_console)
    page.on("pageerror", lambda error: page.console_errors.append(f"uncaught {error}"))
    page.on("response", on_response)
    page.on("request", lambda request: page.in_flight.add(request))
    page.on("requestfinished", lambda request: page.in_flight.discard(request))
    page.on("requestfailed", lambda request: page.in_flight.discard(request))
    page.route("**/*", on_route)
    return page


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.browser_test_failed = report.failed
    return report


@pytest.fixture
def open_page(browser, site, request):
    """`open_page(viewport=DESKTOP)`: a new page in a fresh browser context (its own cookies).

    When the test fails, each page's last state is saved under test-artifacts/screenshots/failures/.
    """
    contexts = []

    def open_(viewport=DESKTOP):
        context = browser.new_context(base_url=site.url, viewport=viewport, locale="en-US")
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        contexts.append(context)
        return _watch(context.new_page(), site.url)

    yield open_
    failed = getattr(request.node, "browser_test_failed", False)
    server_errors = []
    for number, context in enumerate(contexts, start=1):
        for page in context.pages:
            if failed:
                (SCREENSHOTS / "failures").mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / "failures" / f"{request.node.name}-{number}.png"))
            _wait_for_requests(page)
            server_errors += page.server_errors
        context.close()
    # A server error behind an XHR (preview, chooser) need not break the step that caused it: report it.
    if server_errors:
        message = "the live server answered with errors (traceback in the captured log):\n" + "\n".join(
            server_errors
        )
        if failed:
            print(message, file=sys.stderr)
        else:
            pytest.fail(message)


def _wait_for_requests(page):
    deadline = time.monotonic() + IN_FLIGHT_TIMEOUT_S
    while page.in_flight and time.monotonic() < deadline:
        page.wait_for_timeout(100)  # lets Playwright deliver the "finished" events


@pytest.fixture
def page(open_page):
    return open_page()


@pytest.fixture
def screenshot():
    """Save a full-page screenshot into test-artifacts/screenshots/ for a person to look at after a run."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def save(page, name):
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 10_000, f"{path} is suspiciously small"
        return path

    return save
