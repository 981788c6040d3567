"""Editors run the data refresh (docs/upstreams.md, "Who can"): they edit refresh settings and the
upstream mapping, press "Refresh now", and read run records and unmapped rows. Translators get none.

Permissions are fetched with get_or_create because on a fresh database Django creates model
permissions only after all migrations ran (post_migrate).
"""

from django.db import migrations

EDITORS = "Editors"
RIGHTS = {
    "refreshconfig": ("add", "change", "view"),
    "upstreammapping": ("add", "change", "view"),
    "refreshrun": ("view",),
    "unmappedupstreamrow": ("view",),
}


def _permissions(apps):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    found = []
    for model, actions in RIGHTS.items():
        content_type, _ = ContentType.objects.get_or_create(app_label="benchmarks", model=model)
        for action in actions:
            permission, _ = Permission.objects.get_or_create(
                content_type=content_type, codename=f"{action}_{model}", defaults={"name": f"Can {action} {model}"}
            )
            found.append(permission)
    return found


def grant(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    editors, _ = Group.objects.get_or_create(name=EDITORS)
    editors.permissions.add(*_permissions(apps))


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    editors = Group.objects.filter(name=EDITORS).first()
    if editors is not None:
        editors.permissions.remove(*_permissions(apps))


class Migration(migrations.Migration):
    dependencies = [
        ("benchmarks", "0006_history_immutable"),
        ("editorial", "0002_translators_editors_spanish_review"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
