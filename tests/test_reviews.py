"""Review of changed figures: a published snapshot lists what it changed on which live page, in which
language and where; editors mark items reviewed; two snapshots compare side by side."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import Group, Permission

from reviews.models import ChangeSet, FigureChange
from tests.factories import EndpointFactory, LanguageModelFactory, SnapshotFactory, SourceFactory
from tests.figures_support import (
    glm_data,
    make_article,
    paragraph,
    picks,
    publish_correction,
    publish_new_snapshot,
    ref_html,
    table,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def glm():
    return glm_data()


def chart(data):
    return {
        "type": "bar_chart",
        "value": {
            "model": data["model"].pk,
            "source": data["source"].pk,
            "metric": "output_speed_median",
            "name_style": "short",
            "note": "",
        },
    }


@pytest.fixture
def pages(glm):
    """An article on GLM-5.3 in both languages, and one on another model that no GLM change touches."""
    speed = ref_html(glm["model"], "output_speed_median", endpoint=glm["fast"])
    heading = {"type": "heading", "value": {"text": "GLM-5.3", "level": "h2", "anchor": ""}}
    glm_page = make_article(
        [
            heading,
            table(glm),
            chart(glm),
            picks(glm),
            paragraph(f"<p>Baseten leads at {speed} tokens/s.</p>"),
        ],
        body_es=[
            heading,
            table(glm),
            chart(glm),
            picks(glm),
            paragraph(f"<p>Baseten lidera con {speed} tokens/s.</p>"),
        ],
        sources=[glm["source"], glm["pricing"]],
        title="GLM page",
    )
    other_model = {
        "model": LanguageModelFactory(name="Other"),
        "source": SourceFactory(title="Other providers"),
    }
    endpoint = EndpointFactory(model=other_model["model"])
    SnapshotFactory(
        source=other_model["source"], values=[(endpoint, "output_speed_median", 50)], published=True
    )
    other_page = make_article([table(other_model)], sources=[other_model["source"]], title="Other page")
    return {"glm": glm_page, "other": other_page}


def items_of(snapshot):
    return list(
        FigureChange.objects.filter(change_set__snapshot=snapshot).order_by("language", "block_index", "pk")
    )


def test_a_changed_value_is_listed_for_every_page_language_and_place(glm, pages):
    new = publish_new_snapshot(glm, {("fast", "output_speed_median"): "301.2"})

    items = items_of(new)
    english = [
        (i.block_index, i.place, i.kind, i.figure, i.old_text, i.new_text)
        for i in items
        if i.language == "en"
    ]
    assert english == [
        (1, "Provider table · GLM-5.3 (block 2)", "value", "Baseten (Fast) · Output speed", "283.4", "301.2"),
        (2, "Bar chart · GLM-5.3 (block 3)", "value", "Baseten (Fast) · Output speed", "283.4", "301.2"),
        (
            3,
            "Picks table (block 4)",
            "value",
            "Fastest · GLM-5.3 · reason",
            "283.4 tokens/s, 0.90 s first chunk",
            "301.2 tokens/s, 0.90 s first chunk",
        ),
        (4, "Paragraph (block 5)", "value", "Baseten (Fast) · GLM-5.3 · Output speed", "283.4", "301.2"),
    ]
    spanish = [(i.block_index, i.kind) for i in items if i.language == "es"]
    assert spanish == [(1, "value"), (2, "value"), (3, "value"), (4, "value")]
    assert {i.page_id for i in items} == {pages["glm"].pk}, (
        "the other model's page shows none of these figures"
    )
    change_set = ChangeSet.objects.get(snapshot=new)
    assert change_set.previous == glm["snapshot"] and not change_set.is_correction


def test_nothing_is_listed_when_the_same_values_are_published_again(editor_client, glm, pages):
    new = publish_new_snapshot(glm)
    assert ChangeSet.objects.filter(snapshot=new).exists()
    assert items_of(new) == []
    assert "No changed figure is waiting for review." in editor_client.get("/admin/reviews/changes/").text


def test_a_new_leader_is_a_pick_change(glm, pages):
    new = publish_new_snapshot(glm, {("zai", "output_speed_median"): "300.0"})

    english = [
        (i.block_index, i.kind, i.figure, i.old_text, i.new_text) for i in items_of(new) if i.language == "en"
    ]
    picks_changed = [row for row in english if row[1] == "pick"]
    assert (3, "pick", "Fastest · GLM-5.3", "Baseten (Fast)", "Z.ai") in picks_changed
    assert (1, "pick", "leader", "Baseten (Fast)", "Z.ai") in picks_changed  # the table's first row
    assert (2, "pick", "leader", "Baseten (Fast)", "Z.ai") in picks_changed  # the chart's longest bar
    assert (1, "value", "Z.ai · Output speed", "150.4", "300.0") in english
    assert not [row for row in english if row[0] == 4], (
        "the prose quotes Baseten's speed, which did not change"
    )


def test_a_reordering_below_the_leader_is_a_ranking_change(glm, pages):
    new = publish_new_snapshot(glm, {("novita", "output_speed_median"): "170.0"})
    ranking = [
        (i.block_index, i.old_text, i.new_text)
        for i in items_of(new)
        if i.kind == "ranking" and i.language == "en"
    ]
    # Only the rows that moved, each at its old place ("Was") and its new one ("Now").
    assert (
        1,
        "… 2. Together AI, 3. Z.ai, 4. Novita AI",
        "… 2. Novita AI, 3. Together AI, 4. Z.ai",
    ) in ranking


def test_a_correction_is_compared_with_the_snapshot_it_replaces(glm, pages):
    correction = publish_correction(glm["snapshot"], {(glm["novita"].pk, "ttfc_median"): Decimal("2.01")})
    change_set = ChangeSet.objects.get(snapshot=correction)
    assert change_set.is_correction and change_set.previous == glm["snapshot"]
    english = [
        (i.block_index, i.figure, i.old_text, i.new_text) for i in items_of(correction) if i.language == "en"
    ]
    assert english == [(1, "Novita AI · First chunk", "2.51", "2.01")]


def test_editors_mark_items_reviewed_from_the_list_and_the_dashboard_follows(editor_client, glm, pages):
    new = publish_new_snapshot(glm, {("fast", "output_speed_median"): "301.2"})
    items = items_of(new)

    dashboard = editor_client.get("/admin/").text
    assert "Changed figures to review" in dashboard and "GLM page" in dashboard
    listing = editor_client.get("/admin/reviews/changes/").text
    assert f'href="/admin/reviews/compare/{glm["snapshot"].pk}/{new.pk}/"' in listing
    assert listing.count('data-item="') == len(items) == 8

    first = items[0]
    editor_client.post("/admin/reviews/changes/", {"items": [first.pk]})
    first.refresh_from_db()
    assert first.reviewed_at is not None and first.reviewed_by.username == "editor"
    assert editor_client.get("/admin/reviews/changes/").text.count('data-item="') == 7

    editor_client.post("/admin/reviews/changes/", {"change_set": new.review_change_set.pk})
    assert FigureChange.objects.open().count() == 0
    assert "No changed figure is waiting for review." in editor_client.get("/admin/").text
    assert editor_client.get("/admin/reviews/changes/?show=reviewed").text.count('data-item="') == 8


def test_only_reviewers_see_and_mark_items(client, django_user_model, glm, pages):
    change_set = publish_new_snapshot(glm, {("fast", "output_speed_median"): "301.2"}).review_change_set.pk
    user = django_user_model.objects.create_user("reader", password="pw-reader-123")
    user.user_permissions.add(Permission.objects.get(codename="access_admin"))
    client.force_login(user)
    # Wagtail answers a refused admin view with a redirect to the dashboard and a message.
    assert client.get("/admin/reviews/changes/").status_code == 302
    assert client.post("/admin/reviews/changes/", {"change_set": change_set}).status_code == 302

    user.groups.add(Group.objects.get(name="Translators"))
    user = django_user_model.objects.get(pk=user.pk)
    client.force_login(user)
    assert client.get("/admin/reviews/changes/").status_code == 200
    assert client.post("/admin/reviews/changes/", {"change_set": change_set}).status_code == 302
    assert FigureChange.objects.open().count() == 8, "translators read the list but don't close items"

    user.groups.add(Group.objects.get(name="Editors"))
    client.force_login(django_user_model.objects.get(pk=user.pk))
    client.post("/admin/reviews/changes/", {"change_set": change_set})
    assert FigureChange.objects.open().count() == 0


def test_snapshot_comparison_shows_values_differences_and_rank_changes(editor_client, glm):
    new = publish_new_snapshot(
        glm, {("zai", "output_speed_median"): "300.0", ("novita", "ttfc_median"): "2.40"}
    )

    html = editor_client.get(f"/admin/reviews/compare/{glm['snapshot'].pk}/{new.pk}/").text
    speed = html[html.index('data-metric="output_speed_median"') :]
    speed = speed[: speed.index("</table>")]
    zai_row = speed[speed.index(f'data-endpoint="{glm["zai"].pk}"') :]
    zai_row = zai_row[: zai_row.index("</tr>")]
    assert "<td>150.4</td>" in zai_row and "<td>300.0</td>" in zai_row and "<td>+149.6</td>" in zai_row
    assert "3 → 1" in zai_row
    fast_row = speed[speed.index(f'data-endpoint="{glm["fast"].pk}"') :]
    assert "1 → 2" in fast_row[: fast_row.index("</tr>")]
    first_chunk = html[html.index('data-metric="ttfc_median"') :]
    assert "<td>\u22120.11</td>" in first_chunk[: first_chunk.index("</table>")]
    assert 'data-metric="accuracy_index"' not in html, "unchanged metrics are hidden by default"
    assert (
        'data-metric="accuracy_index"'
        in editor_client.get(f"/admin/reviews/compare/{glm['snapshot'].pk}/{new.pk}/?all=1").text
    )


def test_snapshots_of_different_sources_are_not_compared(editor_client, glm):
    other = SnapshotFactory(values=[(glm["fast"], "output_speed_median", 1)], published=True)
    response = editor_client.get(f"/admin/reviews/compare/{glm['snapshot'].pk}/{other.pk}/")
    assert response.status_code == 400
    assert f"Snapshots #{glm['snapshot'].pk} and #{other.pk} belong to different sources" in response.text
    missing = editor_client.get(f"/admin/reviews/compare/{glm['snapshot'].pk}/999999/", follow=True)
    assert missing.status_code == 404


def test_a_new_ranking_lists_the_prose_that_names_a_moved_provider(glm):
    cards = {
        "type": "provider_cards",
        "value": {
            "metric": "output_speed_median",
            "models": [{"model": glm["model"].pk, "source": glm["source"].pk}],
            "cards": [
                {"provider": glm["zai"].provider.pk, "summary": "", "strengths": "<p>Accurate.</p>",
                 "limitations": "<p>It never takes first place on speed.</p>"},
            ],
        },
    }
    page = make_article(
        [
            table(glm),
            paragraph("<p>Z.ai is the slowest host here.</p>"),
            paragraph("<p>Prices are list rates.</p>"),
            cards,
        ]
    )
    new = publish_new_snapshot(glm, {("zai", "output_speed_median"): "300.0"})

    [leader] = FigureChange.objects.filter(
        change_set__snapshot=new, page=page, language="en", kind="pick", block_index=0
    )
    assert (leader.old_text, leader.new_text) == ("Baseten (Fast)", "Z.ai")
    named = leader.mention_list
    assert any(place.startswith("Paragraph (block 2)") for place in named)
    assert not any(place.startswith("Paragraph (block 3)") for place in named)  # names no provider
    # The Z.ai card never names Z.ai, but all its text is about Z.ai: it is listed too.
    assert "Provider cards (block 4) › Z.ai" in named


def test_a_reordering_far_down_a_ranking_quotes_the_rows_that_moved():
    from reviews.page_figures import _ranking_change

    hosts = [f"Host {n}" for n in range(1, 11)]
    moved = hosts[:6] + [hosts[7], hosts[6]] + hosts[8:]  # 7th and 8th swap places
    [change] = _ranking_change((1, "speed"), "Provider table", [(h, h) for h in hosts], [(h, h) for h in moved])
    *_head, kind, _figure, was, now = change
    assert kind == "ranking"
    assert was == "… 7. Host 7, 8. Host 8 …"
    assert now == "… 7. Host 8, 8. Host 7 …"
