"""The editors' side of benchmark data: listings, the snapshot editor, corrections, uploads."""

import re
from decimal import Decimal

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from benchmarks.models import Measurement, Price, Snapshot, Source

from .data_admin_support import (
    current_rows,
    draft_fixture,  # noqa: F401  (the draft fixture)
    endpoints_fixture,  # noqa: F401  (the endpoints fixture)
    listed,
    published_fixture,  # noqa: F401  (the published fixture)
    snapshot_form_data,
    url,
)
from .factories import (
    PriceFactory,
    SnapshotFactory,
    SourceFactory,
)
from .upload_support import post_upload
from .workspace_support import review, translate

# --- listings -----------------------------------------------------------------------------------


def test_endpoint_listing_search_and_filter(editor_client, endpoints):
    everything = editor_client.get(url("endpoint", "list"))
    assert everything.status_code == 200
    assert listed(everything, "endpoint") == {e.pk for e in endpoints.values()}

    searched = editor_client.get(url("endpoint", "list"), {"q": "glm-5p3"})
    assert listed(searched, "endpoint") == {endpoints["fw_glm"].pk}
    searched = editor_client.get(url("endpoint", "list"), {"q": "together"})
    assert listed(searched, "endpoint") == {endpoints["tg_glm"].pk, endpoints["tg_glm_fast"].pk}

    filtered = editor_client.get(url("endpoint", "list"), {"model": endpoints["fw_gpt"].model_id})
    assert listed(filtered, "endpoint") == {endpoints["fw_gpt"].pk}
    both = editor_client.get(
        url("endpoint", "list"),
        {"provider": endpoints["tg_glm"].provider_id, "model": endpoints["tg_glm"].model_id},
    )
    assert listed(both, "endpoint") == {endpoints["tg_glm"].pk, endpoints["tg_glm_fast"].pk}


def test_snapshot_listing_filters_by_status_and_source(editor_client, draft, published):
    other = SnapshotFactory(source=SourceFactory(title="First-party run", publisher="Novita AI"))
    assert listed(editor_client.get(url("snapshot", "list")), "snapshot") == {
        draft.pk,
        published.pk,
        other.pk,
    }
    assert listed(editor_client.get(url("snapshot", "list"), {"status": "published"}), "snapshot") == {
        published.pk
    }
    assert listed(editor_client.get(url("snapshot", "list"), {"status": "draft"}), "snapshot") == {
        draft.pk,
        other.pk,
    }
    assert listed(editor_client.get(url("snapshot", "list"), {"source": other.source_id}), "snapshot") == {
        other.pk
    }
    assert listed(editor_client.get(url("snapshot", "list"), {"q": "Novita"}), "snapshot") == {other.pk}


def test_price_and_provider_listings(editor_client, endpoints):
    glm_price = PriceFactory(endpoint=endpoints["fw_glm"])
    gpt_price = PriceFactory(endpoint=endpoints["fw_gpt"], currency="EUR")
    tg_price = PriceFactory(endpoint=endpoints["tg_glm"])
    by_model = editor_client.get(url("price", "list"), {"model": endpoints["fw_glm"].model_id})
    assert listed(by_model, "price") == {glm_price.pk, tg_price.pk}
    assert listed(editor_client.get(url("price", "list"), {"currency": "eur"}), "price") == {gpt_price.pk}
    assert listed(editor_client.get(url("price", "list"), {"q": "Together"}), "price") == {tg_price.pk}

    providers = editor_client.get(url("provider", "list"), {"q": "fire"})
    assert listed(providers, "provider") == {endpoints["fw_glm"].provider_id}


def test_endpoint_chooser_searches(editor_client, endpoints):
    response = editor_client.get(
        reverse("wagtailsnippetchoosers_benchmarks_endpoint:choose_results"), {"q": "Fast"}
    )
    assert response.status_code == 200
    assert "Together AI (Fast) · GLM-5.3" in response.text
    assert "Fireworks · GLM-5.3" not in response.text


def test_benchmark_data_menu_lists_everything(editor_client, db):
    home = editor_client.get(reverse("wagtailadmin_home"))
    assert "Benchmark data" in home.text
    for target in [url("provider", "list"), url("snapshot", "list"), url("price", "list")]:
        assert target in home.text
    assert reverse("benchmarks_import_snapshot:upload") in home.text
    assert reverse("benchmarks_import_prices:upload") in home.text


# --- Spanish is written in the translation workspace, not beside English ---------------------------


def test_snippet_forms_are_english_only_and_the_spanish_comes_from_the_workspace(editor_client, endpoints):
    provider = endpoints["fw_glm"].provider
    form = editor_client.get(url("provider", "edit", provider.pk))
    assert 'name="description_en"' in form.text and 'name="description_es"' not in form.text
    assert "translation workspace" in form.text  # the field says where its Spanish is written
    response = editor_client.post(
        url("provider", "edit", provider.pk),
        {
            "name": provider.name,
            "full_name": "Fireworks AI",
            "slug": provider.slug,
            "kind": provider.kind,
            "website": provider.website,
            "description_en": "Fast open-model host.",
            "description_es": "Texto colado a mano.",  # no such field: ignored
            "action-publish": "action-publish",
        },
    )
    assert response.status_code == 302
    provider.refresh_from_db()
    assert provider.description_en == "Fast open-model host."
    assert provider.description_es != "Texto colado a mano."

    assert translate(editor_client, provider, {"description": "Host rápido de modelos abiertos."},
                     action="submit").status_code == 302
    assert review(editor_client, provider).status_code == 302
    provider.refresh_from_db()
    assert (provider.description_en, provider.description_es) == (
        "Fast open-model host.",
        "Host rápido de modelos abiertos.",
    )

    source = SourceFactory()
    form = editor_client.get(url("source", "edit", source.pk))
    for name in ("title_en", "attribution_en"):
        assert f'name="{name}"' in form.text
    for name in ("title_es", "attribution_es"):
        assert f'name="{name}"' not in form.text
    # A source is added in English; its Spanish falls back to English until it is translated.
    response = editor_client.post(
        url("source", "add"),
        {
            "title_en": "GLM-5.3 providers",
            "publisher": "Artificial Analysis",
            "url": "https://benchmarks.example.com/glm",
            "kind": "benchmark",
            "licence": "",
            "attribution_en": "",
            "action-publish": "action-publish",
            "accessed_on": "",
        },
    )
    assert response.status_code == 302
    added = Source.objects.get(url="https://benchmarks.example.com/glm")
    with translation.override("es"):
        assert added.title == "GLM-5.3 providers"


# --- the snapshot editor -------------------------------------------------------------------------


def test_draft_editor_shows_measurements_inline_and_saves_them(editor_client, draft, endpoints):
    form = editor_client.get(url("snapshot", "edit", draft.pk))
    assert form.status_code == 200
    assert 'name="measurements-TOTAL_FORMS" value="2"' in form.text
    assert 'name="measurements-0-value"' in form.text and 'value="210.400000"' in form.text
    assert "is a draft" in form.text

    rows = current_rows(draft)
    rows[0] = (*rows[0][:3], "215.0")
    rows.append((None, endpoints["tg_glm_fast"], "ttfc_median", "0.31"))
    response = editor_client.post(
        url("snapshot", "edit", draft.pk), snapshot_form_data(draft, rows, workload="1,000-token input")
    )
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    draft.refresh_from_db()
    assert draft.workload == "1,000-token input"
    assert sorted((m.endpoint_id, m.metric, m.value) for m in draft.measurements.all()) == sorted(
        [
            (endpoints["fw_glm"].pk, "output_speed_median", Decimal("215.0")),
            (endpoints["tg_glm"].pk, "output_speed_median", Decimal("164.3")),
            (endpoints["tg_glm_fast"].pk, "ttfc_median", Decimal("0.31")),
        ]
    )


def test_draft_editor_rejects_impossible_and_duplicate_values(editor_client, draft, endpoints):
    rows = current_rows(draft)
    bad = [(*rows[0][:3], "-5"), rows[1]]
    response = editor_client.post(url("snapshot", "edit", draft.pk), snapshot_form_data(draft, bad))
    assert response.status_code == 200
    assert "Output speed cannot be negative (got -5)." in response.text
    duplicate = [*rows, (None, endpoints["fw_glm"], "output_speed_median", "199")]
    response = editor_client.post(url("snapshot", "edit", draft.pk), snapshot_form_data(draft, duplicate))
    assert response.status_code == 200
    assert "Please correct the duplicate data for snapshot, endpoint and metric" in response.text
    assert draft.measurements.count() == 2
    assert draft.measurements.get(endpoint=endpoints["fw_glm"]).value == Decimal("210.4")


def test_published_snapshot_is_read_only(editor_client, published):
    page = editor_client.get(url("snapshot", "edit", published.pk))
    assert page.status_code == 200
    assert "This snapshot is published and cannot be changed" in page.text
    assert 'id="w-editor-form"' not in page.text
    assert "210.4 tokens/s" in page.text
    assert url("snapshot", "correct", published.pk) in page.text

    response = editor_client.post(
        url("snapshot", "edit", published.pk),
        snapshot_form_data(published, current_rows(published), workload="changed"),
    )
    assert response.status_code == 302
    followed = editor_client.get(response["Location"])
    assert "cannot be changed" in followed.text
    published.refresh_from_db()
    assert published.workload == "10,000-token input" and published.measurements.count() == 2

    response = editor_client.post(url("snapshot", "delete", published.pk))
    assert response.status_code == 302
    assert Snapshot.objects.filter(pk=published.pk).exists()
    listing = editor_client.get(url("snapshot", "list"))
    assert url("snapshot", "delete", published.pk) not in listing.text


def test_correction_is_created_edited_and_published(editor_client, published, endpoints):
    response = editor_client.post(url("snapshot", "correct", published.pk))
    correction = Snapshot.objects.get(supersedes=published)
    assert response.status_code == 302 and response["Location"] == url("snapshot", "edit", correction.pk)
    assert correction.status == Snapshot.Status.DRAFT
    assert (correction.source_id, correction.measured_at) == (published.source_id, published.measured_at)
    assert current_values(correction) == current_values(published)
    # Asking again opens the same draft instead of a second one.
    editor_client.post(url("snapshot", "correct", published.pk))
    assert Snapshot.objects.count() == 2

    rows = current_rows(correction)
    fixed = [
        (m, endpoint, metric, "201.9" if metric == "output_speed_median" else value)
        for m, endpoint, metric, value in rows
    ]
    response = editor_client.post(
        url("snapshot", "edit", correction.pk), snapshot_form_data(correction, fixed)
    )
    assert response.status_code == 302

    # Publishing a correction needs a note saying what changed.
    page = editor_client.post(url("snapshot", "publish", correction.pk), {"correction_note": " "})
    assert page.status_code == 200 and "Say what the correction changes." in page.text
    correction.refresh_from_db()
    assert correction.status == Snapshot.Status.DRAFT

    response = editor_client.post(
        url("snapshot", "publish", correction.pk),
        {"correction_note": "Fireworks speed was read from the wrong row."},
    )
    assert response.status_code == 302
    published.refresh_from_db()
    correction.refresh_from_db()
    assert published.status == Snapshot.Status.SUPERSEDED
    assert correction.status == Snapshot.Status.PUBLISHED
    assert correction.correction_note == "Fireworks speed was read from the wrong row."
    # History is kept; the site now shows the corrected figure.
    assert published.measurements.get(endpoint=endpoints["fw_glm"]).value == Decimal("210.4")
    latest = Measurement.objects.latest(
        endpoints=[endpoints["fw_glm"]], metrics=["output_speed_median"]
    ).get()
    assert (latest.snapshot_id, latest.value) == (correction.pk, Decimal("201.9"))
    old_page = editor_client.get(url("snapshot", "edit", published.pk))
    assert "superseded by a correction" in old_page.text
    assert url("snapshot", "edit", correction.pk) in old_page.text


def test_draft_is_published_from_the_editor(editor_client, draft):
    confirm = editor_client.get(url("snapshot", "publish", draft.pk))
    assert confirm.status_code == 200 and "Yes, publish" in confirm.text
    response = editor_client.post(url("snapshot", "publish", draft.pk))
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.status == Snapshot.Status.PUBLISHED and draft.published_at is not None
    empty = SnapshotFactory()
    editor_client.post(url("snapshot", "publish", empty.pk))
    empty.refresh_from_db()
    assert empty.status == Snapshot.Status.DRAFT


def current_values(snapshot):
    return sorted((m.endpoint_id, m.metric, m.value) for m in snapshot.measurements.all())


# --- uploads -------------------------------------------------------------------------------------


def upload(client, kind, name, content, **fields):
    """The upload's progress page once its import task has run."""
    return post_upload(
        client, reverse(f"benchmarks_import_{kind}:upload"), {"file": SimpleUploadedFile(name, content), **fields}
    )


def test_upload_shows_every_error_and_writes_nothing(editor_client, endpoints):
    source = SourceFactory()
    content = (
        b"provider,model,tier,metric,value\n"
        b"fireworks,glm-5-3,,output_speed_median,210.4\n"
        b"fireworks,glm-5-3,,ttfc_median,fast\n"
        b"nobody,glm-5-3,,ttfc_median,1\n"
    )
    response = upload(
        editor_client, "snapshot", "aa.csv", content, source=source.pk, measured_at="2026-11-28 14:00"
    )
    assert response.status_code == 200
    rows = re.findall(
        r'<tr class="import-error">\s*<td>(.*?)</td>\s*<td>(.*?)</td>\s*<td>(.*?)</td>', response.text
    )
    assert rows == [
        ("3", "value", "&#x27;fast&#x27; is not a number"),
        ("4", "provider", "unknown provider “nobody” (use the provider&#x27;s slug)"),
    ]
    assert "Nothing was imported" in response.text
    assert Snapshot.objects.count() == 0 and Measurement.objects.count() == 0


def test_upload_imports_and_reports_a_repeat(editor_client, endpoints):
    source = SourceFactory()
    content = b"provider,model,tier,metric,value\nfireworks,glm-5-3,,output_speed_median,210.4\ntogether,glm-5-3,Fast,ttfc_median,0.3\n"
    response = upload(
        editor_client, "snapshot", "aa.csv", content, source=source.pk, measured_at="2026-11-28 14:00"
    )
    snapshot = Snapshot.objects.get()
    assert f"Imported 2 measurements into snapshot #{snapshot.pk} (draft)." in response.text
    assert url("snapshot", "edit", snapshot.pk) in response.text
    again = upload(
        editor_client, "snapshot", "aa.csv", content, source=source.pk, measured_at="2026-11-28 14:00"
    )
    assert f"already imported as snapshot #{snapshot.pk}" in again.text
    assert Snapshot.objects.count() == 1


def test_price_upload(editor_client, endpoints):
    price_list = SourceFactory(kind="price_list")
    content = b"provider,model,tier,input_per_m,output_per_m,currency\ntogether,glm-5-3,,1.40,4.40,USD\n"
    response = upload(
        editor_client,
        "prices",
        "prices.csv",
        content,
        source=price_list.pk,
        effective_date="2026-11-28",
        publish="on",
    )
    assert response.status_code == 200 and "Imported 1 price, recorded in snapshot" in response.text
    price = Price.objects.get()
    assert price.snapshot.status == Snapshot.Status.PUBLISHED and price.source == price_list
    bad = upload(
        editor_client,
        "prices",
        "prices2.csv",
        content.replace(b"USD", b""),
        source=price_list.pk,
        effective_date="2026-11-29",
    )
    assert "A price needs a currency (e.g. USD)." in bad.text and Price.objects.count() == 1


def test_upload_needs_permission(client, django_user_model, db):
    user = django_user_model.objects.create_user("reader", password="pw")
    from django.contrib.auth.models import Permission

    user.user_permissions.add(Permission.objects.get(codename="access_admin"))
    client.force_login(user)
    response = client.get(reverse("benchmarks_import_snapshot:upload"))
    # Wagtail turns a refusal into a redirect to the dashboard with a message.
    assert response.status_code == 302 and response["Location"] == reverse("wagtailadmin_home")
    assert reverse("benchmarks_import_snapshot:upload") not in client.get(reverse("wagtailadmin_home")).text


def test_a_correction_saved_from_the_editor_keeps_the_seconds_of_its_time(editor_client, endpoints):
    import datetime

    from .admin_forms import form_data

    moment = datetime.datetime(2026, 11, 30, 11, 56, 23, tzinfo=datetime.UTC)
    published = SnapshotFactory(values=[(endpoints["fw_glm"], "output_speed_median", "210.4")], published=True,
                                measured_at=moment, fetched_at=moment)
    editor_client.post(url("snapshot", "correct", published.pk))
    correction = Snapshot.objects.get(supersedes=published)
    # The editor saves the draft as the browser posts it, without touching the dates.
    data = form_data(editor_client.get(url("snapshot", "edit", correction.pk)).text, "w-editor-form")
    assert editor_client.post(url("snapshot", "edit", correction.pk), data).status_code == 302
    correction.refresh_from_db()
    assert (correction.measured_at, correction.fetched_at) == (moment, moment)
