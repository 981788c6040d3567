"""Steps people take in the Wagtail admin, written once for the editor and translator tests."""

import re
from dataclasses import dataclass

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


# The article body's editor panel (English: the only body the page form edits).
BODY_PANEL = "#panel-child-content-body_en-content"


def publish(page):
    """Publish from the page editor's actions menu and wait for the confirmation."""
    submit(page, open_actions_menu(page).get_by_role("button", name="Publish", exact=True), "has been published")


def stream_block(page, block_id):
    """A top-level block of the body editor, found by its block id."""
    return page.locator(f"{BODY_PANEL} [data-streamfield-child][data-contentpath='{block_id}']")


def block_action(page, block_id, action):
    """A block header's button: MOVE_UP, MOVE_DOWN, DUPLICATE or DELETE (not those of nested lists)."""
    return stream_block(page, block_id).locator(
        f":scope > section > .w-panel__header [data-streamfield-action='{action}']"
    )


def workspace_url(obj, view=""):
    """The translation workspace of `obj` (view: "", "review/" or "preview/")."""
    return f"/admin/translate/{obj._meta.app_label}/{obj._meta.model_name}/{obj.pk}/{view}"


def segment(page, key):
    """The workspace row of one segment (its key: "title", "body/<block id>/text"…)."""
    return page.locator(f"tr.workspace-segment[data-key='{key}']")


def segment_with_english(page, text):
    """The workspace row whose English column holds `text`."""
    return page.locator("tr.workspace-segment", has=page.locator("td.workspace-english", has_text=text))


def spanish_markup(row):
    """A workspace row's Spanish as the markup the form posts: rich text is edited as text (figures as
    chips) until the translator asks for its markup."""
    toggle = row.get_by_role("button", name="Edit markup")
    if toggle.count():
        toggle.click()
    return row.locator("textarea")


def save_translation(page, button="Save draft", message="draft was saved"):
    """Post the workspace form with one of its buttons and wait for the confirmation."""
    submit(page, page.get_by_role("button", name=button, exact=True), message)


@dataclass
class Clicks:
    """Counts the clicks a person makes: every click of a flow under test goes through here."""

    count: int = 0

    def click(self, locator, **kwargs):
        self.count += 1
        locator.click(**kwargs)



def prepend_to_rich_text(page, field_name, text):
    """Type `text` at the very start of a page field edited in Draftail (the summary is rich text, so
    its statements can be checked); the rest of the field, statements included, is left as it was."""
    editor = page.locator(f"[data-contentpath='{field_name}'] [contenteditable='true']").first
    editor.click()
    page.keyboard.press("Control+Home")
    page.keyboard.type(text)
    # Draftail writes its hidden input a moment after the last keystroke: a save before that loses it.
    expect(page.locator(f"#id_{field_name}")).to_have_value(re.compile(re.escape(text.strip())))


def replace_in_spanish_markup(row, old, new):
    """Replace words in a workspace row's Spanish markup, keeping its tokens (figures, links and
    checked statements) where they are."""
    box = spanish_markup(row)
    value = box.input_value()
    assert old in value, (old, value)
    box.fill(value.replace(old, new))
