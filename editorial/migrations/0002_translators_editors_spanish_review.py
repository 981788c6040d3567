"""Create the Translators and Editors roles and the "Spanish review" workflow.

Permissions are fetched with get_or_create because on a fresh database Django creates model
permissions only after all migrations ran (post_migrate).
"""

from django.db import migrations

TRANSLATORS = "Translators"
EDITORS = "Editors"
WORKFLOW = "Spanish review"
TASK = "Editors approve Spanish"

# Snippets whose translated fields translators edit (the form limits them to the *_es fields).
TRANSLATABLE_SNIPPETS = ["provider", "source"]
# Benchmark data editors maintain; translators get none of it (no Measurement, Price or Snapshot rights).
EDITOR_DATA_MODELS = ["provider", "languagemodel", "endpoint", "source", "snapshot", "measurement", "price"]


def _permission(apps, app_label, model, codename, name):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    content_type, _ = ContentType.objects.get_or_create(app_label=app_label, model=model)
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename=codename, defaults={"name": name}
    )
    return permission


def _page_permission(apps, action):
    return _permission(apps, "wagtailcore", "page", f"{action}_page", f"Can {action} page")


def _model_permission(apps, model, action):
    return _permission(apps, "benchmarks", model, f"{action}_{model}", f"Can {action} {model}")


def create_roles(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    ContentType = apps.get_model("contenttypes", "ContentType")
    Page = apps.get_model("wagtailcore", "Page")
    GroupPagePermission = apps.get_model("wagtailcore", "GroupPagePermission")
    GroupApprovalTask = apps.get_model("wagtailcore", "GroupApprovalTask")
    Workflow = apps.get_model("wagtailcore", "Workflow")
    WorkflowTask = apps.get_model("wagtailcore", "WorkflowTask")
    WorkflowPage = apps.get_model("wagtailcore", "WorkflowPage")

    # The tree root: permissions and the workflow given here cover every page of every site,
    # including a home page created later (the demo replaces Wagtail's placeholder page).
    root = Page.objects.filter(depth=1).order_by("path").first()
    if root is None:
        raise RuntimeError("Wagtail's root page is missing; run wagtailcore's migrations first.")

    access_admin = _permission(apps, "wagtailadmin", "admin", "access_admin", "Can access Wagtail admin")
    view_status = _permission(
        apps, "editorial", "translationstate", "view_translationstate", "Can view translation state"
    )

    translators, _ = Group.objects.get_or_create(name=TRANSLATORS)
    translators.permissions.add(
        access_admin,
        view_status,
        *[_model_permission(apps, model, "change") for model in TRANSLATABLE_SNIPPETS],
        *[_model_permission(apps, model, "view") for model in TRANSLATABLE_SNIPPETS],
    )
    # "change" only: no add, no publish (they submit to the workflow instead), no lock, no delete.
    GroupPagePermission.objects.get_or_create(group=translators, page=root, permission=_page_permission(apps, "change"))

    # Wagtail's initial data already made an "Editors" group (add + change pages); it becomes the
    # publishing role that approves Spanish review.
    editors, _ = Group.objects.get_or_create(name=EDITORS)
    editors.permissions.add(
        access_admin,
        view_status,
        *[
            _model_permission(apps, model, action)
            for model in EDITOR_DATA_MODELS
            for action in ("add", "change", "view")
        ],
    )
    for action in ("add", "change", "publish", "lock", "unlock"):
        GroupPagePermission.objects.get_or_create(group=editors, page=root, permission=_page_permission(apps, action))

    task_type, _ = ContentType.objects.get_or_create(app_label="wagtailcore", model="groupapprovaltask")
    task, _ = GroupApprovalTask.objects.get_or_create(name=TASK, defaults={"content_type": task_type, "active": True})
    task.groups.set([editors])
    workflow, _ = Workflow.objects.get_or_create(name=WORKFLOW, defaults={"active": True})
    WorkflowTask.objects.get_or_create(workflow=workflow, task=task, defaults={"sort_order": 0})
    # One workflow per page: this replaces Wagtail's default "Moderators approval" on the root.
    WorkflowPage.objects.update_or_create(page=root, defaults={"workflow": workflow})


def remove_roles(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Page = apps.get_model("wagtailcore", "Page")
    Task = apps.get_model("wagtailcore", "Task")
    Workflow = apps.get_model("wagtailcore", "Workflow")
    WorkflowPage = apps.get_model("wagtailcore", "WorkflowPage")

    root = Page.objects.filter(depth=1).order_by("path").first()
    default = Workflow.objects.filter(name="Moderators approval").first()
    if root is not None and default is not None:
        WorkflowPage.objects.update_or_create(page=root, defaults={"workflow": default})
    Workflow.objects.filter(name=WORKFLOW).delete()
    Task.objects.filter(name=TASK).delete()
    Group.objects.filter(name=TRANSLATORS).delete()
    # Editors predates this migration (Wagtail creates it); its extra rights are left in place.


class Migration(migrations.Migration):
    dependencies = [
        ("editorial", "0001_initial"),
        ("wagtailcore", "0090_remove_grouppagepermission_permission_type"),
        ("wagtailadmin", "0001_create_admin_access_permissions"),
        ("benchmarks", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
