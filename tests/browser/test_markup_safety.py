"""The filter-evasion corpus typed by a translator into the Spanish disclosure of the demo article in
Chromium: each vector is refused with a reason, or submitted, approved by an editor and published;
a reader's Chromium then opens the live Spanish page and is neither sent elsewhere nor shown a dialog,
and the page, read by html5lib, holds no element or attribute outside the allow-list."""


import pytest
from playwright.sync_api import expect

from ..markup_safety import VECTORS, injected
from .admin_steps import SAVE_TIMEOUT_MS, log_in, member, segment, spanish_markup, visit, workspace_url

pytestmark = pytest.mark.browser

ARTICLE_ES = "/es/api-llm-mas-rapida/"
# A meta refresh in the vectors waits 2 s; a reader stays this long on the page.
READ_MS = 2_600


def read_as_visitor(open_page):
    """(final URL, dialogs shown, page HTML) after a reader has stayed on the Spanish page a while."""
    reader = open_page()
    dialogs = []
    reader.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    visit(reader, ARTICLE_ES)
    reader.wait_for_timeout(READ_MS)
    html = reader.content()
    url = reader.url
    assert not reader.external_requests, reader.external_requests
    reader.context.close()
    return url, dialogs, html


def test_the_evasion_corpus_typed_in_the_workspace_never_reaches_a_reader(open_page, django_user_model):
    from articles.models import ArticlePage
    from editorial.roles import EDITORS, TRANSLATORS

    article = ArticlePage.objects.get(slug_en="fastest-llm-api")
    member(django_user_model, "traductora", TRANSLATORS)
    member(django_user_model, "editora", EDITORS)
    translator, editor = open_page(), open_page()
    log_in(translator, "traductora")
    log_in(editor, "editora")
    first_url, _dialogs, baseline = read_as_visitor(open_page)

    outcomes = {}
    vectors = {f"disclosure:{name}": ("publisher_disclosure", f"MARK-{name}", f"<p>Divulgación MARK-{name}.</p>{vector}")
               for name, vector in VECTORS.items()}
    # Plain text is escaped wherever it is shown: the workspace takes it as typed.
    vectors["title:breakout"] = ("title", "MARK-title", "Título MARK-title </title><img src=x onerror=alert(40)>")
    previous_key = None
    for name, (key, marker, text) in vectors.items():
        # The workspace answers each post with itself (refused: the form again with what was typed;
        # saved: a redirect to it), so it is opened afresh only when another segment is typed into.
        if key != previous_key:
            visit(translator, workspace_url(article))
            previous_key = key
        spanish_markup(segment(translator, key)).fill(text)
        with translator.expect_navigation(timeout=SAVE_TIMEOUT_MS):
            translator.get_by_role("button", name="Save and submit for review").click()
        message = translator.locator(".messages")
        if "Nothing was saved" in message.inner_text():
            errors = translator.locator(".error-message").all_inner_texts()
            assert errors and segment(translator, key).locator(".error-message").count(), (name, errors)
            outcomes[name] = "refused"
            continue
        expect(message).to_contain_text("submitted for review")
        visit(editor, workspace_url(article, "review/"))
        editor.get_by_role("button", name="Approve", exact=True).click(no_wait_after=True)
        expect(editor.locator(".messages")).to_contain_text("approved and published", timeout=SAVE_TIMEOUT_MS)
        url, dialogs, html = read_as_visitor(open_page)
        assert (url, dialogs) == (first_url, []), name
        assert marker in html, name
        assert injected(html, baseline) == [], name
        outcomes[name] = "published"
        previous_key = None

    assert outcomes["disclosure:comment-meta-refresh"] == "refused"
    assert outcomes["disclosure:comment-dash-gt"] == "refused"
    assert outcomes["title:breakout"] == "published"
    # Whatever was published last is what readers now get: still on the page, no dialog.
    url, dialogs, html = read_as_visitor(open_page)
    assert (url, dialogs) == (first_url, [])
    assert injected(html, baseline) == []
