"""Uploaded import files in the admin: the progress page of one (with its JSON status for the page's own
poll), and the listing of past uploads."""

from datetime import timedelta

from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.template.defaultfilters import filesizeformat
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from wagtail.admin.ui.tables import Column, DateColumn, StatusTagColumn, TitleColumn
from wagtail.admin.views.generic import IndexView
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.admin.viewsets.model import ModelViewSet
from wagtail.permission_policies import ModelPermissionPolicy
from wagtail.permissions import register_permission_policy

from ..models import Snapshot
from ..upload_models import Upload

URLS = "benchmarks_uploads"
# Who may upload (and so follow and list) each kind of file.
PERMISSIONS = {
    Upload.Kind.RECORDS: "firstparty.change_run",
    Upload.Kind.SNAPSHOT: "benchmarks.add_snapshot",
    Upload.Kind.PRICES: "benchmarks.add_price",
}
# Progress is written every second or so; this long without any means the worker is gone or missing.
STALLED_AFTER = timedelta(minutes=5)


def kinds_for(user):
    return [kind for kind, permission in PERMISSIONS.items() if user.has_perm(permission)]


def progress_url(upload):
    return reverse(f"{URLS}:progress", args=[upload.pk])


def progress_text(upload):
    if upload.status == Upload.Status.QUEUED:
        return gettext("Waiting for a worker to start the import.")
    if upload.status == Upload.Status.CHECKING:
        return gettext("Checking the file…")
    rows = ngettext("%(rows)s row read", "%(rows)s rows read", upload.rows_read) % {
        "rows": number_format(upload.rows_read, force_grouping=True)}
    return gettext("%(rows)s · %(read)s of %(size)s (%(percent)s%%)") % {
        "rows": rows, "read": filesizeformat(upload.bytes_read), "size": filesizeformat(upload.size),
        "percent": upload.percent}


def stalled_text(upload):
    if upload.finished:
        return ""
    idle = timezone.now() - upload.updated_at
    if idle < STALLED_AFTER:
        return ""
    minutes = int(idle.total_seconds() // 60)
    if upload.status == Upload.Status.QUEUED:
        return ngettext(
            "No worker has started this import for %(minutes)s minute: is a Celery worker running?",
            "No worker has started this import for %(minutes)s minutes: is a Celery worker running?", minutes,
        ) % {"minutes": minutes}
    return ngettext(
        "The import has not moved for %(minutes)s minute: its worker may have stopped (see the worker's log).",
        "The import has not moved for %(minutes)s minutes: its worker may have stopped (see the worker's log).",
        minutes,
    ) % {"minutes": minutes}


def status(upload):
    return {
        "status": upload.status, "label": upload.get_status_display(), "finished": upload.finished,
        "rows_read": upload.rows_read, "bytes_read": upload.bytes_read, "size": upload.size,
        "percent": upload.percent, "text": progress_text(upload), "stalled": stalled_text(upload),
    }


def visible_upload(request, pk):
    upload = get_object_or_404(Upload.objects.select_related("uploaded_by"), pk=pk)
    if upload.uploaded_by_id != request.user.pk and upload.kind not in kinds_for(request.user):
        raise PermissionDenied
    return upload


def links(upload):
    """Where to go from a finished upload: what it made, and the page to upload another file."""
    found = []
    if upload.snapshot_id:
        found.append((gettext("Open snapshot #%(pk)s") % {"pk": upload.snapshot_id},
                      reverse(Snapshot.snippet_viewset.get_url_name("edit"), args=[upload.snapshot_id])))
    run = upload.options.get("run")
    if upload.kind == Upload.Kind.RECORDS and run:
        found.append((gettext("Run progress"), reverse("firstparty_actions:progress", args=[run])))
        if upload.status == Upload.Status.FAILED:
            found.append((gettext("Upload another file"), reverse("firstparty_actions:upload", args=[run])))
    elif upload.kind != Upload.Kind.RECORDS:
        found.append((gettext("Upload another file"), reverse(f"benchmarks_import_{upload.kind}:upload")))
    found.append((gettext("All uploads"), reverse(f"{URLS}:index")))
    return found


class UploadProgressView(WagtailAdminTemplateMixin, TemplateView):
    template_name = "benchmarks/admin/upload_progress.html"
    header_icon = "upload"
    page_title = _("Upload")

    def dispatch(self, request, pk):
        self.upload = visible_upload(request, pk)
        return super().dispatch(request)

    def get_page_subtitle(self):
        return self.upload.name

    def get_context_data(self, **kwargs):
        upload = self.upload
        return {
            **super().get_context_data(**kwargs), "upload": upload, "progress_text": progress_text(upload),
            "stalled": stalled_text(upload), "links": links(upload),
            "status_url": reverse(f"{URLS}:status", args=[upload.pk]),
        }


def upload_status(request, pk):
    """What the progress page's script polls (benchmarks/static/benchmarks/js/upload_progress.js); the admin
    marks it never-cached like every admin response."""
    return JsonResponse(status(visible_upload(request, pk)))


class UploadPolicy(ModelPermissionPolicy):
    """Uploads are listed to whoever may upload some kind of file; they are written by uploads only."""

    def user_has_permission(self, user, action):
        if action in ("add", "change", "delete"):
            return False
        return user.is_active and bool(kinds_for(user))

    def user_has_any_permission(self, user, actions):
        return any(self.user_has_permission(user, action) for action in actions)


register_permission_policy(Upload, UploadPolicy(Upload))


class UploadIndexView(IndexView):
    def get_base_queryset(self):
        return super().get_base_queryset().of_kinds(kinds_for(self.request.user)).select_related("uploaded_by")

    def get_edit_url(self, instance):
        return progress_url(instance)

    @property
    def no_results_message(self):
        if self.is_searching or self.is_filtering:
            return gettext("No upload matches your search or filters.")
        return gettext("No file has been uploaded for import yet. Files uploaded on “Import snapshot”, "
                       "“Import prices” or a run's “Upload records” are listed here with their progress.")


def size_text(upload):
    return filesizeformat(upload.size)


def needs_a_look(upload):
    return upload.status == Upload.Status.FAILED or upload.attention


class UploadViewSet(ModelViewSet):
    model = Upload
    icon = "upload"
    menu_label = _("Uploads")
    name = URLS
    url_prefix = "benchmarks/uploads"
    index_view_class = UploadIndexView
    copy_view_enabled = False
    inspect_view_enabled = False
    add_to_reference_index = False
    search_fields = ["name", "target"]
    list_filter = ["kind", "status"]
    list_per_page = 50
    ordering = ["-created_at", "-pk"]
    list_display = [
        TitleColumn("name", label=_("File"), get_url=progress_url),
        Column("kind", label=_("Kind"), accessor="get_kind_display"),
        StatusTagColumn("status", label=_("Status"), accessor="get_status_display", primary=needs_a_look),
        Column("target", label=_("Imported into")),
        Column("rows_read", label=_("Rows read")),
        Column("size", label=_("Size"), accessor=size_text),
        Column("uploaded_by", label=_("Uploaded by")),
        DateColumn("created_at", label=_("Uploaded")),
    ]
    form_fields = []

    def get_urlpatterns(self):
        return super().get_urlpatterns() + [
            path("<int:pk>/progress/", UploadProgressView.as_view(), name="progress"),
            path("<int:pk>/status/", upload_status, name="status"),
        ]
