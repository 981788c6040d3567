"""Sources record their licence and attribution: pages that show Artificial Analysis figures credit it,
the admin warns when a licence does not allow publication, and the refresh admin shows the upstream's
remaining request budget. A legacy AA price of 0/0 is "not measured", never a jump to zero."""

import datetime
import json
from decimal import Decimal

import pytest
from bs4 import BeautifulSoup
from django.urls import reverse
from django.utils import timezone

from benchmarks.demo_data import AA_ATTRIBUTION, AA_ATTRIBUTION_ES
from benchmarks.ingest.refresh import run_refresh
from benchmarks.models import Price, RefreshConfig, RefreshRun, Source

from .refresh_support import (  # noqa: F401
    AA_GLM_ID,
    EXAMPLES,
    build_world,
    fake_upstream_fixture,
    world_fixture,  # noqa: F401  (the world fixture)
)


def page_text(response):
    assert response.status_code == 200
    return " ".join(BeautifulSoup(response.content, "html.parser").get_text(" ").split())


@pytest.mark.parametrize(
    "url, attribution",
    [
        ("/en/fastest-llm-api/", AA_ATTRIBUTION),
        ("/en/fastest-llm-api/data/", AA_ATTRIBUTION),
        ("/es/api-llm-mas-rapida/", AA_ATTRIBUTION_ES),
        ("/es/api-llm-mas-rapida/datos/", AA_ATTRIBUTION_ES),
    ],
)
def test_pages_showing_artificial_analysis_figures_credit_it(client, demo_site, url, attribution):
    assert attribution in page_text(client.get(url))


def test_the_admin_warns_when_a_licence_does_not_allow_publication(db, editor_client):
    allowed = Source.objects.create(title="Open data", publisher="Open", url="https://example.com/open")
    closed = Source.objects.create(
        title="Paid feed",
        publisher="Closed",
        url="https://example.com/closed",
        licence_allows_publication=False,
    )

    listing = page_text(editor_client.get(reverse("wagtailsnippets_benchmarks_source:list")))
    assert listing.count("Licence does not allow publication") == 1
    edit_closed = page_text(
        editor_client.get(reverse("wagtailsnippets_benchmarks_source:edit", args=[closed.pk]))
    )
    assert "The licence of this source does not allow publication" in edit_closed
    edit_open = page_text(
        editor_client.get(reverse("wagtailsnippets_benchmarks_source:edit", args=[allowed.pk]))
    )
    assert "does not allow publication" not in edit_open


def test_refresh_settings_show_the_remaining_request_budget_and_the_licence(world, editor_client):
    reset = timezone.now() + datetime.timedelta(hours=3)
    RefreshConfig.objects.filter(source=world.aa_free).update(
        rate_limit={
            "limit": 100,
            "remaining": 37,
            "reset": reset.isoformat(),
            "seen_at": timezone.now().isoformat(),
        },
        next_attempt_after=reset,
    )
    Source.objects.filter(pk=world.litellm.pk).update(licence_allows_publication=False)

    text = page_text(editor_client.get(reverse("refresh_settings:index")))

    local = timezone.localtime(reset)
    assert (
        f"37 of 100 requests left · resets {local:%Y-%m-%d %H:%M} · next attempt after {local:%Y-%m-%d %H:%M}"
        in text
    )
    assert "not reported" in text  # sources whose upstream states no budget
    assert text.count("Licence does not allow publication") == 1


def test_legacy_zero_prices_do_not_trip_the_price_check(world, settings, tmp_path):
    """0/0 in the legacy response means "no price measured": the price readers see stays, no jump."""
    body = json.loads((EXAMPLES / "synthetic_aa_data_llms_models.json").read_text())
    glm = next(item for item in body["data"] if item["id"] == AA_GLM_ID)
    glm["pricing"] = {"price_1m_blended_3_to_1": 0, "price_1m_input_tokens": 0, "price_1m_output_tokens": 0}
    (tmp_path / "aa.json").write_text(json.dumps(body))
    settings.REFRESH_FILES_DIR = str(tmp_path)
    zai = world.glm["Z.ai"]
    Price.objects.create(
        endpoint=zai,
        input_per_m=Decimal("1.4"),
        output_per_m=Decimal("4.4"),
        currency="USD",
        effective_date=world.price_day,
        source=world.aa_providers,
        snapshot=None,  # typed by an editor: a published snapshot's prices are history and cannot be added to
    )
    source = Source.objects.create(
        title="Saved AA file", publisher="Artificial Analysis", url="https://example.com/aa"
    )
    RefreshConfig.objects.create(
        source=source, adapter="artificial_analysis_legacy_file", params={"path": "aa.json", "include": ["*"]}
    )

    run = run_refresh(source.pk)

    assert run.status == RefreshRun.Status.CHANGED, run.error
    assert not any(change["what"] == "price" for change in run.changes)
    current = Price.objects.current(endpoints=[zai.pk]).get()
    assert (current.input_per_m, current.output_per_m) == (Decimal("1.4"), Decimal("4.4"))
    speeds = {(m.endpoint_id, m.metric): m.value for m in run.snapshot.measurements.all()}
    assert speeds[(zai.pk, "output_speed_median")] == Decimal("98.2")
