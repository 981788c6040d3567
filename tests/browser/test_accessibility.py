"""axe-core (axe-playwright-python ships it, so no network) finds no WCAG 2.0, 2.1 and 2.2 A/AA violation
on the articles, their data pages and change logs and the home pages, in English and Spanish, on a
desktop and on a phone.

No rule is excluded: a violation is fixed in the templates or assets/css/site.css. A failure lists each
violated rule with the elements it found, so the message says what to fix.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe

from .viewports import DESKTOP, PHONE

pytestmark = pytest.mark.browser

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# Every page a reader reaches from the demo articles: both articles, their data pages and change logs,
# in both languages, and the home pages that list them.
PAGES = (
    "/en/fastest-llm-api/",
    "/es/api-llm-mas-rapida/",
    "/en/fastest-llm-api/data/",
    "/es/api-llm-mas-rapida/datos/",
    "/en/fastest-llm-api/changes/",
    "/es/api-llm-mas-rapida/cambios/",
    "/en/glm-5-3-flash-providers/",
    "/es/proveedores-glm-5-3-flash/",
    "/en/glm-5-3-flash-providers/data/",
    "/es/proveedores-glm-5-3-flash/datos/",
    "/en/glm-5-3-flash-providers/changes/",
    "/es/proveedores-glm-5-3-flash/cambios/",
    "/en/",
    "/es/",
)
AXE = Axe()
OPEN_TRAILS = """() => document.querySelectorAll('.prov-toggle').forEach(button => {
  button.setAttribute('aria-expanded', 'true');
  button.nextElementSibling.hidden = false;
})"""


def violations_report(violations):
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']} — {len(violation['nodes'])} nodes")
        for node in violation["nodes"][:8]:
            lines.append(f"    {' '.join(map(str, node['target']))}: {node['failureSummary'].splitlines()[-1].strip()}")
            lines.append(f"      {node['html'][:160]}")
    return "\n".join(lines)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280px", "375px"])
@pytest.mark.parametrize("url", PAGES)
def test_no_wcag_violation(open_page, url, viewport):
    page = open_page(viewport)
    response = page.goto(url)
    assert response.ok and page.url.endswith(url), (url, page.url)
    page.wait_for_load_state("networkidle")
    violations = run_axe(page)
    assert not violations, f"{url} at {viewport['width']} px:\n{violations_report(violations)}"
    # Again with every figure's trail open, as a reader who opens them sees the page (links, colours).
    page.evaluate(OPEN_TRAILS)
    violations = run_axe(page)
    assert not violations, f"{url} at {viewport['width']} px, trails open:\n{violations_report(violations)}"
    assert not page.console_errors, page.console_errors


def run_axe(page):
    results = AXE.run(page, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    # A run that checked nothing would pass too: the engine must have applied rules to this page.
    assert results.response["passes"], "axe applied no rule"
    return results.response["violations"]
