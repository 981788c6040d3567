"""What a refresh changes for readers: current prices and figures, with no manual step."""

import datetime
import json
from decimal import Decimal

from django.utils import timezone

from benchmarks.metrics import get_metric
from benchmarks.models import (
    Measurement,
    Price,
    RefreshRun,
    Snapshot,
)
from benchmarks.querysets import rank_rows

from .refresh_support import (
    AA_GLM_ID,
    OPENROUTER_GLM,
    example_json,
    fake_upstream_fixture,  # noqa: F401  (the fake_upstream fixture)
    refresh_fixture,  # noqa: F401  (the refresh fixture)
    staged_history,
    world_fixture,  # noqa: F401  (the world fixture)
)

# --- a good run ---------------------------------------------------------------------------------


# --- the reader's view --------------------------------------------------------------------------
def test_a_refreshed_price_is_the_current_price_without_any_manual_step(world, fake_upstream, refresh):
    refresh(world.openrouter)
    body = example_json("synthetic_openrouter_z-ai_glm-5.3_endpoints.json")
    body["data"]["endpoints"][0]["pricing"].update(prompt="0.0000011", completion="0.0000039")
    fake_upstream.set(OPENROUTER_GLM, json.dumps(body))
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    with staged_history():  # the first refresh happened yesterday
        Price.objects.filter(source=world.openrouter).update(
            effective_date=timezone.localdate() - datetime.timedelta(days=1)
        )

    run = refresh(world.openrouter)

    assert run.status == RefreshRun.Status.CHANGED, run.error
    price = Price.objects.current(on_date=tomorrow).get(endpoint=world.glm["Together AI"])
    assert (price.input_per_m, price.output_per_m) == (Decimal("1.1"), Decimal("3.9"))
    assert {"what": "price", "old": "1.4 / 4.4 USD", "new": "1.1 / 3.9 USD"}.items() <= next(
        c for c in run.changes if c["what"] == "price" and c["endpoint"] == world.glm["Together AI"].pk
    ).items()


def test_measurements_of_a_refresh_are_what_the_queryset_serves(world, fake_upstream, refresh):
    refresh(world.aa_providers)

    rows = Measurement.objects.latest(
        models=[world.models["GLM-5.3"]], sources=[world.aa_providers], metrics=["output_speed_median"]
    )
    leader = rank_rows(list(rows), get_metric("output_speed_median"))[0]

    assert leader.endpoint == world.glm["Baseten (Fast)"] and leader.value == Decimal("283.4")
    assert AA_GLM_ID in Snapshot.objects.get(pk=leader.snapshot_id).raw_payload


def test_refreshed_price_appears_on_the_article_page_with_no_manual_step(
    world, fake_upstream, refresh, client
):
    from articles.demo import ensure_home_page
    from articles.models import ArticlePage

    home = ensure_home_page()
    table = {
        "model": world.models["GLM-5.3"].pk,
        "source": None,
        "sort_metric": "output_speed_median",
        "name_style": "short",
        "show_api_model": False,
        "cite_sources": False,
        "caption": "",
        "columns": [
            {"field": "output_speed_median", "difference_to_leader": False},
            {"field": "price", "difference_to_leader": False},
        ],
    }
    page = ArticlePage(
        title="GLM-5.3 hosts", slug="glm-hosts", body=[{"type": "provider_table", "value": table}]
    )
    home.add_child(instance=page)
    page.save_revision().publish()

    def together_row():
        response = client.get(page.url)
        assert response.status_code == 200
        text = response.content.decode()
        start = text.index('<span class="provider-name">Together AI</span>')
        return text[start : text.index("</tr>", start)]

    assert "$1.40 / $4.40" in together_row()  # rendered (and cached) before the refresh
    body = example_json("synthetic_openrouter_z-ai_glm-5.3_endpoints.json")
    body["data"]["endpoints"][0]["pricing"].update(prompt="0.0000011", completion="0.0000039")
    fake_upstream.set(OPENROUTER_GLM, json.dumps(body))

    run = refresh(world.openrouter)

    assert run.status == RefreshRun.Status.CHANGED and run.published, run.error
    row = together_row()
    assert "$1.10 / $3.90" in row and "$1.40" not in row
