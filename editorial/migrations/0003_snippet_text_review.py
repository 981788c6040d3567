"""Provider descriptions and source titles go through the "Spanish review" workflow too.

Editors may publish and unlock them; translators may only edit (their changes wait for approval).
"""

from django.db import migrations

EDITORS = "Editors"
WORKFLOW = "Spanish review"
REVIEWED_SNIPPETS = ["provider", "source"]


def _permission(apps, model, codename, name):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    content_type, _ = ContentType.objects.get_or_create(app_label="benchmarks", model=model)
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename=codename, defaults={"name": name}
    )
    return content_type, permission


def forwards(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Workflow = apps.get_model("wagtailcore", "Workflow")
    WorkflowContentType = apps.get_model("wagtailcore", "WorkflowContentType")
    editors = Group.objects.get(name=EDITORS)
    workflow = Workflow.objects.get(name=WORKFLOW)
    for model in REVIEWED_SNIPPETS:
        for action in ("publish", "lock", "unlock"):
            content_type, permission = _permission(apps, model, f"{action}_{model}", f"Can {action} {model}")
            editors.permissions.add(permission)
        WorkflowContentType.objects.update_or_create(content_type=content_type, defaults={"workflow": workflow})


def backwards(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    WorkflowContentType = apps.get_model("wagtailcore", "WorkflowContentType")
    WorkflowContentType.objects.filter(
        content_type__in=ContentType.objects.filter(app_label="benchmarks", model__in=REVIEWED_SNIPPETS)
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("editorial", "0002_translators_editors_spanish_review"),
        ("benchmarks", "0003_provider_source_review_workflow"),
        ("wagtailcore", "0098_apitoken"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
