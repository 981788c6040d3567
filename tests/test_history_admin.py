"""In the admin: a price readers have seen changes only through a correction with history, and the
Editors group runs the data refresh as docs/upstreams.md says."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from benchmarks.models import Price, RefreshConfig, RefreshRun, Snapshot

from .factories import EndpointFactory, SnapshotFactory, SourceFactory

# As the web processes' database role, which may only read and write rows (tests/app_role.py).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("app_role")]


def url(model, view, *args):
    return reverse(f"wagtailsnippets_benchmarks_{model}:{view}", args=args)


@pytest.fixture
def editor(client, django_user_model):
    """A member of the Editors group (not a superuser): the role the issue is about."""
    user = django_user_model.objects.create_user("erin", "erin@example.com", "pw-erin-123")
    user.groups.add(Group.objects.get(name="Editors"))
    client.force_login(user)
    return client


@pytest.fixture
def price_list():
    """A published price-list snapshot recording Baseten (Fast)'s 2.10 / 6.60."""
    source = SourceFactory(kind="price_list", publisher="Baseten")
    snapshot = SnapshotFactory(source=source, raw_payload="provider,model\n")
    price = Price.objects.create(
        endpoint=EndpointFactory(tier="Fast"), input_per_m=Decimal("2.10"), output_per_m=Decimal("6.60"),
        currency="USD", effective_date=timezone.localdate(), source=source, snapshot=snapshot,
    )
    snapshot.publish()
    return price


def price_form(price, **changes):
    return {
        "endpoint": price.endpoint_id, "input_per_m": str(price.input_per_m), "output_per_m": str(price.output_per_m),
        "currency": price.currency, "promo_input_per_m": "", "promo_output_per_m": "", "promo_until": "",
        "effective_date": str(price.effective_date), "source": price.source_id, "snapshot": price.snapshot_id or "",
        **changes,
    }


def test_an_editor_cannot_change_a_published_price_in_place(editor, price_list):
    page = editor.get(url("price", "edit", price_list.pk))
    assert page.status_code == 200
    assert f"This price is part of snapshot #{price_list.snapshot_id}, which readers have seen" in page.text

    response = editor.post(
        url("price", "edit", price_list.pk), price_form(price_list, input_per_m="0.5", output_per_m="0.5"), follow=True
    )

    assert "it is history and cannot be changed here" in response.text
    price_list.refresh_from_db()
    assert (price_list.input_per_m, price_list.output_per_m) == (Decimal("2.10"), Decimal("6.60"))
    # Nor deleted.
    editor.post(url("price", "delete", price_list.pk))
    assert Price.objects.filter(pk=price_list.pk).exists()


def test_a_price_changes_through_a_correction_that_keeps_the_old_one(editor, price_list):
    snapshot = price_list.snapshot
    response = editor.post(url("snapshot", "correct", snapshot.pk))
    draft = Snapshot.objects.get(supersedes=snapshot)
    assert response["Location"] == url("snapshot", "edit", draft.pk)
    copy = draft.prices.get()
    assert (copy.input_per_m, copy.output_per_m, copy.effective_date) == (
        Decimal("2.10"), Decimal("6.60"), price_list.effective_date,
    )
    assert url("price", "edit", copy.pk) in editor.get(url("snapshot", "edit", draft.pk)).text

    assert "which readers have seen" not in editor.get(url("price", "edit", copy.pk)).text  # a draft's price
    assert editor.post(url("price", "edit", copy.pk), price_form(copy, input_per_m="2.00")).status_code == 302
    editor.post(url("snapshot", "publish", draft.pk), {"correction_note": "Baseten cut the Fast input price."})

    snapshot.refresh_from_db()
    draft.refresh_from_db()
    assert (snapshot.status, draft.status) == (Snapshot.Status.SUPERSEDED, Snapshot.Status.PUBLISHED)
    assert draft.correction_note == "Baseten cut the Fast input price."
    shown = Price.objects.current().get(endpoint=price_list.endpoint)
    assert (shown.pk, shown.input_per_m) == (copy.pk, Decimal("2.00"))
    price_list.refresh_from_db()
    assert price_list.input_per_m == Decimal("2.10")  # the history keeps what readers saw


def test_the_editors_group_runs_the_refresh_admin(editor):
    source = SourceFactory()
    RefreshConfig.objects.create(source=source, adapter="litellm", params={"include": ["*"]})

    assert editor.get(reverse("refresh_settings:index")).status_code == 200
    assert editor.get(reverse("refresh_runs:index")).status_code == 200
    now = reverse("benchmarks_refresh:now", args=[source.pk])
    assert editor.get(now).status_code == 200
    response = editor.post(now)
    assert response.status_code == 302
    run = RefreshRun.objects.get(source=source)
    assert run.trigger == RefreshRun.Trigger.MANUAL and run.requested_by.username == "erin"
