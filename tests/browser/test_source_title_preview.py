"""The source form shows the title as readers will see it ("publisher · title") while the editor
types, and says so when the title repeats the publisher."""

import pytest
from playwright.sync_api import expect

from .admin_steps import log_in, member, visit

pytestmark = pytest.mark.browser


def test_the_title_as_readers_see_it_follows_the_typing(open_page, django_user_model):
    from editorial.roles import EDITORS

    member(django_user_model, "editora", EDITORS)
    page = open_page()
    log_in(page, "editora")
    visit(page, "/admin/snippets/benchmarks/source/add/")
    preview = page.locator("[data-source-reader-title] output")

    page.locator("#id_publisher").press_sequentially("openbenchmarks-labs")
    expect(preview).to_have_text("openbenchmarks-labs")
    page.locator("#id_title_en").press_sequentially("GLM-5.3-Flash provider run")
    expect(preview).to_have_text("openbenchmarks-labs · GLM-5.3-Flash provider run")

    # Typing the publisher into the title as well shows the doubled name, and saving refuses it.
    page.locator("#id_title_en").fill("openbenchmarks-labs · GLM-5.3-Flash provider run")
    expect(preview).to_have_text("openbenchmarks-labs · openbenchmarks-labs · GLM-5.3-Flash provider run")
    page.locator("#id_url").fill("https://github.com/openbenchmarks-labs/inference")
    page.get_by_role("button", name="Save draft").click()
    expect(page.locator("[data-field-wrapper]:has(#id_title_en) .error-message")).to_contain_text(
        "leave “openbenchmarks-labs” out of the title"
    )
    assert page.console_errors == []
