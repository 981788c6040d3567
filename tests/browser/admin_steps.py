"""Steps people take in the Wagtail admin, written once for the editor and translator tests."""

import re

from playwright.sync_api import expect

PASSWORD = "pw-browser-123"
# Saving an article validates and renders its body in both languages (citation check) and records
# revisions and translation state: seconds for the demo article, more on a busy two-core machine.
SAVE_TIMEOUT_MS = 30_000


def member(django_user_model, username, group_name):
    """A user in one of the editorial groups migration editorial/0002 creates."""
    from django.contrib.auth.models import Group

    user = django_user_model.objects.create_user(username, f"{username}@example.com", PASSWORD)
    user.groups.add(Group.objects.get(name=group_name))
    return user


def visit(page, url):
    """Open an admin URL and insist it answered (a 500 would otherwise surface as a missing button)."""
    response = page.goto(url)
    assert response is not None and response.ok, (
        f"GET {url} answered {response.status if response else 'nothing'} (traceback in the captured log)"
    )
    return response


def log_in(page, username, password=PASSWORD):
    visit(page, "/admin/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/admin/$"))


def show_language_fields(page, code):
    """wagtail-modeltranslation hides each language's fields behind a toggle; English shows by default."""
    toggle = page.locator("button.locale-toggle", has_text=re.compile(f"^{code}$"))
    if "showing-locale" not in (toggle.get_attribute("class") or ""):
        toggle.click()
    expect(toggle).to_have_class(re.compile("showing-locale"))


def open_actions_menu(page):
    """The footer's "more actions" menu beside the main save button (Publish, Submit…, Approve…)."""
    page.locator("footer [data-w-dropdown-target='toggle']").first.click()
    return page.locator("footer")


def submit(page, button, message):
    """Click a button that posts the edit form and wait for the admin's confirmation message."""
    button.click(no_wait_after=True)
    expect(page.locator(".messages")).to_contain_text(message, timeout=SAVE_TIMEOUT_MS)


def input_with_value(page, container, starts_with):
    """The text input inside `container` whose current value starts with `starts_with`.

    StreamField inputs get their values from JavaScript, not from `value` attributes, so a CSS
    attribute selector cannot find them.
    """
    name = page.evaluate(
        """([container, text]) => [...document.querySelectorAll(`${container} input[type=text]`)]
             .find(input => input.value.startsWith(text))?.name""",
        [container, starts_with],
    )
    assert name, f"no input in {container} holds text starting with {starts_with!r}"
    return page.locator(f"input[name='{name}']")
