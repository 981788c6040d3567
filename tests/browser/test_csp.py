"""The Content-Security-Policy is sent on pages and in the admin, and Chromium reports no violation
on any of them (a violation is a console error and a `securitypolicyviolation` event)."""

import pytest

from .admin_steps import log_in, visit

pytestmark = pytest.mark.browser

PUBLIC = ["/en/", "/es/", "/en/fastest-llm-api/", "/en/fastest-llm-api/data/", "/es/api-llm-mas-rapida/",
          "/en/glm-5-3-flash-providers/"]

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def check(page, url):
    response = visit(page, url)
    assert "script-src 'self'" in response.headers.get("content-security-policy", ""), url
    page.wait_for_load_state("networkidle")
    violations = page.evaluate("window.__cspViolations")
    assert violations == [], f"{url}: {violations}"
    refused = [e for e in page.console_errors if "Content Security Policy" in e or "Refused to" in e]
    assert refused == [], f"{url}: {refused}"


def test_public_pages_pass_the_policy(page):
    page.add_init_script(RECORD_VIOLATIONS)
    for url in PUBLIC:
        check(page, url)
        check(page, url)  # the second answer comes from the page cache, with the same header
    assert page.console_errors == []


def test_admin_passes_the_policy(page, django_user_model):
    from articles.models import ArticlePage
    from benchmarks.models import Snapshot

    django_user_model.objects.create_superuser("csp", "csp@example.com", "pw-browser-123")
    article = ArticlePage.objects.get(slug_en="glm-5-3-flash-providers")  # the smaller article edits faster
    snapshot = Snapshot.objects.filter(status="published").first()
    page.add_init_script(RECORD_VIOLATIONS)
    log_in(page, "csp")
    for url in [
        "/admin/",
        "/admin/pages/",
        f"/admin/pages/{article.pk}/edit/",
        f"/admin/pages/{article.pk}/history/",
        "/admin/snippets/benchmarks/snapshot/",
        f"/admin/snippets/benchmarks/snapshot/edit/{snapshot.pk}/",
        "/admin/images/",
        "/admin/reports/site-history/",
    ]:
        check(page, url)
    # Opening a block chooser and the preview panel runs most of the editor's scripts.
    visit(page, f"/admin/pages/{article.pk}/edit/")
    page.get_by_role("button", name="Toggle preview").click()
    page.wait_for_timeout(2000)
    assert page.evaluate("window.__cspViolations") == []
    assert not [e for e in page.console_errors if "Content Security Policy" in e or "Refused to" in e]
