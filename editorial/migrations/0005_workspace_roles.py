"""Translators work in the translation workspace only; editors approve there.

Translators lose page editing and the snippet change rights (the page form and snippet forms could
save Spanish, structure and data bindings into a revision); they get `editorial.translate`. Editors
get both workspace rights. The "Spanish review" workflow, which reviewed whole revisions, is
switched off and unassigned: a translation draft is reviewed segment by segment instead.
"""

from django.db import migrations

TRANSLATORS = "Translators"
EDITORS = "Editors"
WORKFLOW = "Spanish review"
SNIPPETS = ["provider", "source"]


def _permission(apps, app_label, model, codename, name):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    content_type, _ = ContentType.objects.get_or_create(app_label=app_label, model=model)
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename=codename, defaults={"name": name}
    )
    return permission


def forwards(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    GroupPagePermission = apps.get_model("wagtailcore", "GroupPagePermission")
    Workflow = apps.get_model("wagtailcore", "Workflow")
    WorkflowPage = apps.get_model("wagtailcore", "WorkflowPage")
    WorkflowContentType = apps.get_model("wagtailcore", "WorkflowContentType")

    translate = _permission(
        apps, "editorial", "translationmemory", "translate", "Can write Spanish translations in the workspace"
    )
    review = _permission(apps, "editorial", "translationmemory", "review_translation", "Can approve Spanish translations")
    translators, _ = Group.objects.get_or_create(name=TRANSLATORS)
    translators.permissions.add(translate)
    translators.permissions.remove(
        *[_permission(apps, "benchmarks", model, f"change_{model}", f"Can change {model}") for model in SNIPPETS]
    )
    GroupPagePermission.objects.filter(group=translators).delete()
    editors, _ = Group.objects.get_or_create(name=EDITORS)
    editors.permissions.add(translate, review)

    workflow = Workflow.objects.filter(name=WORKFLOW).first()
    if workflow is not None:
        WorkflowPage.objects.filter(workflow=workflow).delete()
        WorkflowContentType.objects.filter(workflow=workflow).delete()
        workflow.active = False
        workflow.save(update_fields=["active"])


class Migration(migrations.Migration):
    dependencies = [
        ("editorial", "0004_translation_workspace"),
        ("wagtailcore", "0098_apitoken"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
