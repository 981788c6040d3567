"""Facts in prose stay true: host counts, the leader's name and an endpoint's rank are data references."""

import re

from django.utils import translation

from articles.datarefs.refs import COUNT, LEADER, RANK, DataRef, InvalidReference
from articles.datarefs.resolve import format_resolved, ordinal, resolve_all
from benchmarks.cache import bump_data_generation
from benchmarks.models import Endpoint, Measurement, Snapshot


def visible(html):
    """The page's visible text without footnote markers (a fact carries its source's marker) and without
    the hidden ⓘ trails."""
    from tests.pagecheck import visible_text

    html = re.sub(r'<sup class="fn">.*?</sup>', "", html, flags=re.S)
    return re.sub(r"\s+", " ", visible_text(html))


def test_demo_prose_states_counts_leaders_and_ranks_from_data(client, demo_site):
    english = visible(client.get("/en/fastest-llm-api/").content.decode())
    assert "Of the 6 hosts measured, one stands well ahead: Baseten (Fast), Baseten's premium tier" in english
    assert "7 hosts again." in english and "the table's leader is CoreWeave." in english
    assert "On output speed it ranks 2nd on GLM-5.3, 2nd on DeepSeek V4.1 Flash 1017 and 2nd on GLM-5.3-Flash" in english
    spanish = visible(client.get("/es/api-llm-mas-rapida/").content.decode())
    assert "Se miden 6 proveedores" in spanish and "queda 2.º en GLM-5.3" in spanish

    # A correction makes Together AI fastest on GLM-5.3-Flash: every sentence follows.
    run = Snapshot.objects.get(source__title_en="GLM-5.3-Flash providers", status="published")
    together = Endpoint.objects.get(model__slug="glm-5-3-flash", provider__slug="together-ai")
    correction = Snapshot.objects.create(source=run.source, measured_at=run.measured_at, workload=run.workload)
    for row in run.measurements.all():
        value = 999 if (row.endpoint_id, row.metric) == (together.pk, "output_speed_median") else row.value
        Measurement.objects.create(snapshot=correction, endpoint=row.endpoint, metric=row.metric, value=value)
    run.publish_correction(correction, "Together AI re-measured")
    bump_data_generation()
    english = visible(client.get("/en/fastest-llm-api/").content.decode())
    assert "the table's leader is Together AI." in english
    assert "2nd on DeepSeek V4.1 Flash 1017 and 1st on GLM-5.3-Flash" in english


def test_fact_references_resolve_and_validate(db):
    from tests.figures_support import glm_data

    glm = glm_data()
    refs = [
        DataRef(model_id=glm["model"].pk, metric="output_speed_median", compare=COUNT),
        DataRef(model_id=glm["model"].pk, metric="output_speed_median", compare=LEADER),
        DataRef(model_id=glm["model"].pk, metric="output_speed_median", compare=RANK, endpoint_id=glm["zai"].pk),
        DataRef(model_id=glm["model"].pk, metric="ttfc_median", compare=RANK, endpoint_id=glm["zai"].pk),
    ]
    resolved = resolve_all(refs, _data(refs))
    texts = [format_resolved(resolved[ref.key], "en") for ref in refs]
    assert texts == ["4", "Baseten (Fast)", "3rd", "3rd"]
    with translation.override("es"):
        assert format_resolved(resolved[refs[2].key], "es") == "3.º"
    assert [ordinal(n, "en") for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
    try:
        DataRef.from_attrs({"model": "1", "metric": "output_speed_median", "compare": "rank"})
    except InvalidReference:
        pass
    else:
        raise AssertionError("a rank without an endpoint must be refused")


def _data(refs):
    from articles.datarefs.resolve import data_for

    return data_for(refs)
