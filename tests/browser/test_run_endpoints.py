"""Setting up a measurement run: the editor finds a model's endpoints by searching, ticks "All
endpoints of this model" and saves; the run measures exactly those endpoints."""

import pytest
from playwright.sync_api import expect

from benchmarks.demo_data import RUN_SOURCE

from .admin_steps import PASSWORD, log_in, submit, visit

pytestmark = pytest.mark.browser

MODEL = "GLM-5.3-Flash"


def test_search_and_all_endpoints_of_a_model_pick_the_runs_endpoints(open_page, django_user_model, screenshot):
    from benchmarks.models import Endpoint, Source
    from firstparty.models import Run

    django_user_model.objects.create_superuser("operadora", "operadora@example.com", PASSWORD)
    source = Source.objects.get(kind=Source.Kind.FIRST_PARTY, url=RUN_SOURCE[3])
    page = open_page()
    log_in(page, "operadora")
    visit(page, "/admin/firstparty/runs/new/")

    page.locator("#id_name").fill("Flash hosts, December")
    page.select_option("#id_source", value=str(source.pk))
    # Only first-party sources are offered (the blank choice, the run's and the probe series').
    first_party = Source.objects.filter(kind=Source.Kind.FIRST_PARTY).count()
    assert first_party == 2
    expect(page.locator("#id_source option")).to_have_count(1 + first_party)

    picker = page.locator("[data-endpoint-picker]")
    groups = picker.locator("[data-endpoint-picker-model]")
    flash = groups.filter(has=page.locator("legend", has_text=MODEL))
    picker.get_by_label("Search endpoints (provider or model)").fill(MODEL.lower())
    expect(flash).to_be_visible()
    expect(groups.filter(visible=True)).to_have_count(1)

    flash.get_by_label("All endpoints of this model").check()
    expected = set(Endpoint.objects.filter(model__name=MODEL).values_list("pk", flat=True))
    assert len(expected) > 1
    expect(flash.locator("[data-endpoint-picker-item] input:checked")).to_have_count(len(expected))
    screenshot(page, "run-endpoint-picker")

    submit(page, page.get_by_role("button", name="Create", exact=True), "created")
    run = Run.objects.get(name="Flash hosts, December")
    assert run.source == source
    assert set(run.endpoints.values_list("pk", flat=True)) == expected
    assert page.console_errors == []
