"""A reader who wonders what changed follows the article's "Updated" line to its change log and
finds the corrected figure there, with its old and new values and the correction note."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ARTICLE_EN = "/en/fastest-llm-api/"
ARTICLE_ES = "/es/api-llm-mas-rapida/"
NOTE = "Re-measured after a provider outage"


def correct_a_shown_speed():
    """Correct one output speed of the GLM-5.3 benchmark the demo article shows; (old, new) as printed."""
    from benchmarks.models import Measurement
    from tests.figures_support import publish_correction

    row = (
        Measurement.objects.filter(
            snapshot__status="published", snapshot__source__title_en="GLM-5.3 providers",
            metric="output_speed_median", endpoint__provider__slug="baseten",
        )
        .select_related("snapshot")
        .first()
    )
    publish_correction(row.snapshot, {(row.endpoint_id, row.metric): row.value + Decimal("10")}, note=NOTE)
    return f"{row.value:.1f}", f"{row.value + 10:.1f}"


def test_the_updated_line_leads_to_the_change_log_with_the_correction(page):
    old, new = correct_a_shown_speed()

    page.goto(ARTICLE_EN)
    page.locator("p.meta a.change-log-link").click()
    expect(page).to_have_url(f"{page.url.split('/en/')[0]}{ARTICLE_EN}changes/")
    expect(page.locator("h1")).to_contain_text("Changes to")
    change_set = page.locator("tbody.change-set").first
    expect(change_set.locator("th[scope=rowgroup]")).to_contain_text(f"Correction note: {NOTE}")
    row = change_set.locator("tr", has_text="Output speed").first
    expect(row.locator("td.num").nth(0)).to_have_text(old)
    expect(row.locator("td.num").nth(1)).to_have_text(new)

    page.goto(ARTICLE_ES)
    page.locator("p.meta a.change-log-link").click()
    expect(page).to_have_url(f"{page.url.split('/es/')[0]}{ARTICLE_ES}cambios/")
    expect(page.locator("tbody.change-set").first).to_contain_text(f"Nota de corrección: {NOTE}")
