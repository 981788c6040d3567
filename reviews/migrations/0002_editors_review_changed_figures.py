"""Editors review changed figures and mark them reviewed; translators see the list (the Spanish
prose around a changed figure is theirs to check).

Permissions are fetched with get_or_create because on a fresh database Django creates model
permissions only after all migrations ran (post_migrate).
"""

from django.db import migrations

EDITORS = "Editors"
TRANSLATORS = "Translators"


def _permission(apps, codename, name):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    content_type, _ = ContentType.objects.get_or_create(app_label="reviews", model="figurechange")
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename=codename, defaults={"name": name}
    )
    return permission


def grant(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    view = _permission(apps, "view_figurechange", "Can view changed figure")
    change = _permission(apps, "change_figurechange", "Can change changed figure")
    editors, _ = Group.objects.get_or_create(name=EDITORS)
    editors.permissions.add(view, change)
    translators, _ = Group.objects.get_or_create(name=TRANSLATORS)
    translators.permissions.add(view)


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    perms = Permission.objects.filter(
        content_type__app_label="reviews", codename__in=["view_figurechange", "change_figurechange"]
    )
    for group in Group.objects.filter(name__in=[EDITORS, TRANSLATORS]):
        group.permissions.remove(*perms)


class Migration(migrations.Migration):
    dependencies = [
        ("reviews", "0001_initial"),
        ("editorial", "0002_translators_editors_spanish_review"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
