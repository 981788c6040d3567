"""Spanish text the way it now gets written: in the translation workspace, approved by an editor.

Page and snippet forms have no Spanish fields and every revision's Spanish is rebuilt from the
approved segments (editorial.spanish), so a test that needs Spanish text either posts the workspace
as a translator's browser does (`translate`, `review`) or approves segments directly
(`approve_spanish`) when the workspace is not what it tests.
"""

from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse


def member(django_user_model, username, *groups):
    user = django_user_model.objects.create_user(username, f"{username}@example.com", "pw-not-used-123")
    for group in groups:
        user.groups.add(Group.objects.get(name=group))
    return user


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def workspace_url(obj, view="editorial_workspace"):
    return reverse(view, args=[obj._meta.app_label, obj._meta.model_name, obj.pk])


def review_url(obj):
    return workspace_url(obj, "editorial_workspace_review")


def segment_key(obj, english):
    """The key of the segment of `obj` whose English text contains `english` (exactly one must)."""
    from editorial.spanish import english_segments
    from editorial.workspace import current_english

    keys = [segment.key for segment in english_segments(current_english(obj)) if english in segment.source]
    assert len(keys) == 1, (english, keys)
    return keys[0]


def open_workspace(client, obj, **params):
    """(response, {segment key: row}) of the workspace as the form shows it."""
    response = client.get(workspace_url(obj), params)
    assert response.status_code == 200, response.status_code
    return response, {row.key: row for row in response.context["rows"]}


def form_post(rows, changes=None, confirm=(), action="save"):
    """What the browser posts: every row's text and seen hash as loaded, with `changes` typed in."""
    data = {"action": action}
    for row in rows.values():
        data[f"text-{row.index}"] = row.text_shown
        data[f"seen-{row.index}"] = row.seen
    for key, text in (changes or {}).items():
        data[f"text-{rows[key].index}"] = text
    for key in confirm:
        data[f"confirm-{rows[key].index}"] = "1"
    return data


def translate(client, obj, changes, action="save", confirm=()):
    """Open the workspace, type `changes` ({key: Spanish as shown, tokens and all}) and save or submit."""
    _response, rows = open_workspace(client, obj)
    return client.post(workspace_url(obj), form_post(rows, changes, confirm, action))


def review(client, obj, action="approve", mode="publish", comment="", version=None):
    """Open the review page and approve (or send back) the submitted draft at the version it shows."""
    url = review_url(obj)
    if version is None:
        page = client.get(url)
        assert page.status_code == 200, page.status_code
        version = page.context["draft"].version
    return client.post(url, {"version": version, "action": action, "mode": mode, "comment": comment})


def post_page_editor(client, page, action="action-publish", body_en=None, **fields):
    """Post the page edit form as an editor's browser does (English fields only), with `fields`
    changed and, for an article, the English body replaced by `body_en` (raw stream JSON)."""
    from .admin_forms import form_data
    from .page_post_data import stream_post_data

    url = reverse("wagtailadmin_pages:edit", args=[page.pk])
    data = form_data(client.get(url).text, "page-edit-form")
    draft = type(page).objects.get(pk=page.pk).get_latest_revision_as_object()
    if hasattr(draft, "body_en"):
        if body_en is not None:
            draft.body_en = body_en
        data.update(stream_post_data(draft.body_en, "body_en"))
    data.update({name: _as_posted(name, value) for name, value in fields.items()})
    data[action] = action
    return client.post(url, data)


def _as_posted(name, value):
    """A rich-text field (the summary) is posted as Draftail posts it: its content state."""
    from wagtail.test.utils.form_data import rich_text

    if name.startswith("summary_") and isinstance(value, str) and not value.lstrip().startswith("{"):
        return rich_text(value if value.lstrip().startswith("<") else f"<p>{value}</p>")
    return value


def approve_spanish(obj, texts, user=None, mode="publish"):
    """Approve {segment key: Spanish} for `obj` as a translator's submitted draft an editor approves.

    Rich text is written as the workspace shows it (figures as {1}…); returns the approval's revision."""
    from editorial import approval
    from editorial.workspace import save_draft, workspace_rows

    rows = {row.key: row for row in workspace_rows(obj)}
    posted = {rows[key].index: (text, rows[key].seen, False) for key, text in texts.items()}
    draft = save_draft(obj, user, posted, submit=True)
    return approval.approve(obj, draft.pk, user, draft.version, mode)
