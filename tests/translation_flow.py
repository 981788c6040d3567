"""Spanish text goes through the translation workspace as people do it: save, submit, approve."""

import re

from editorial.workspace import workspace_rows


def workspace_url(obj, suffix=""):
    return f"/admin/translate/{obj._meta.app_label}/{obj._meta.model_name}/{obj.pk}/{suffix}"


def translate_and_approve(client, obj, texts, mode="publish"):
    """Post `texts` ({segment key: Spanish}) to the workspace, submit them and approve them as the
    logged-in user of `client` (who must be an editor). Returns the approval response."""
    rows = {row.key: row for row in workspace_rows(obj)}
    data = {"action": "submit"}
    for key, text in texts.items():
        row = rows[key]
        data[f"text-{row.index}"] = text
        data[f"seen-{row.index}"] = row.seen
    response = client.post(workspace_url(obj), data)
    assert response.status_code == 302, response.content[:3000]
    review = client.get(workspace_url(obj, "review/"))
    version = re.search(r'name="version" value="(\d+)"', review.text).group(1)
    response = client.post(workspace_url(obj, "review/"), {"version": version, "action": "approve", "mode": mode})
    assert response.status_code == 302, response.content[:3000]
    return response
