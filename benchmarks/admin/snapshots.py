"""Snapshots: listing, read-only published view, publish and correction actions."""

from datetime import datetime

import django_filters
from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from wagtail.admin.filters import DateRangePickerWidget, WagtailFilterSet
from wagtail.admin.forms import WagtailAdminModelForm
from wagtail.admin.panels import FieldPanel, FieldRowPanel, MultiFieldPanel, ObjectList
from wagtail.admin.ui.menus import MenuItem as ListingMenuItem
from wagtail.admin.ui.tables import Column, DateColumn, StatusTagColumn
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.admin.widgets import AdminDateTimeInput, HeaderButton
from wagtail.permission_policies import ModelPermissionPolicy
from wagtail.permissions import register_permission_policy
from wagtail.snippets.views.snippets import (
    CreateView,
    DeleteView,
    EditView,
    IndexView,
    SnippetViewSet,
)

from config import four_eyes

from ..cache import invalidate_after_commit
from ..models import Measurement, Price, Snapshot, Source

# --- snapshots ----------------------------------------------------------------------------------
from .choosers import chooser_viewset_class
from .prices import price_window
from .snapshot_measurements import (
    EndpointChooser,
    MeasurementsPanel,
    measurement_window,
    posted_row_ids,
    restrict_formset,
    snapshot_rows,
)


class SnapshotPermissionPolicy(ModelPermissionPolicy):
    """Published and superseded snapshots are history: nobody may delete them, not even in bulk."""

    def user_has_permission_for_instance(self, user, action, instance):
        if action == "delete" and instance.status != Snapshot.Status.DRAFT:
            return False
        return super().user_has_permission_for_instance(user, action, instance)


register_permission_policy(Snapshot, SnapshotPermissionPolicy(Snapshot), exact_class=True)


class SnapshotFilterSet(WagtailFilterSet):
    status = django_filters.ChoiceFilter(
        label=_("status"), choices=Snapshot.Status.choices, empty_label=_("All"), widget=forms.RadioSelect
    )
    source = django_filters.ModelChoiceFilter(label=_("source"), queryset=Source.objects.all())
    source_kind = django_filters.ChoiceFilter(
        label=_("source kind"), field_name="source__kind", choices=Source.Kind.choices, empty_label=_("All")
    )
    measured_at = django_filters.DateFromToRangeFilter(label=_("measured at"), widget=DateRangePickerWidget)

    class Meta:
        model = Snapshot
        fields = ["status", "source", "source_kind", "measured_at"]


def start_correction(snapshot, user=None):
    """A draft copy of a published snapshot, with its measurements, that will supersede it when published.

    Returns (draft, created): an open draft correction is reused rather than duplicated.
    """
    if snapshot.status != Snapshot.Status.PUBLISHED:
        raise ValidationError(_("Only a published snapshot can be corrected."))
    existing = Snapshot.objects.filter(supersedes=snapshot).first()
    if existing:
        return existing, False
    with transaction.atomic():
        draft = Snapshot.objects.create(
            source_id=snapshot.source_id,
            workload=snapshot.workload,
            effort=snapshot.effort,
            concurrency=snapshot.concurrency,
            sample_size=snapshot.sample_size,
            window_start=snapshot.window_start,
            window_end=snapshot.window_end,
            measured_at=snapshot.measured_at,
            fetched_at=snapshot.fetched_at,
            raw_payload=snapshot.raw_payload,
            supersedes=snapshot,
            prepared_by_user_id=getattr(user, "pk", None),
        )
        Measurement.objects.bulk_create(
            Measurement(snapshot=draft, endpoint_id=m.endpoint_id, metric=m.metric, value=m.value)
            for m in snapshot.measurements.all()
        )
        # A price list's prices are copied too: editors change them in the draft (Prices), and the
        # published ones stay as they were, superseded with their snapshot.
        Price.objects.bulk_create(
            Price(
                snapshot=draft,
                endpoint_id=p.endpoint_id,
                source_id=p.source_id,
                input_per_m=p.input_per_m,
                output_per_m=p.output_per_m,
                currency=p.currency,
                promo_input_per_m=p.promo_input_per_m,
                promo_output_per_m=p.promo_output_per_m,
                promo_until=p.promo_until,
                effective_date=p.effective_date,
            )
            for p in snapshot.prices.all()
        )
    return draft, True


class SnapshotUrlsMixin:
    def snapshot_url(self, name, snapshot):
        return reverse(Snapshot.snippet_viewset.get_url_name(name), args=[snapshot.pk])


class SnapshotIndexView(SnapshotUrlsMixin, IndexView):
    def get_base_queryset(self):
        return (
            super()
            .get_base_queryset()
            .select_related("source")
            .annotate(measurement_count=Count("measurements"))
        )

    def get_delete_url(self, instance):
        if instance.status == Snapshot.Status.DRAFT:
            return super().get_delete_url(instance)
        return None

    def get_list_more_buttons(self, instance):
        buttons = super().get_list_more_buttons(instance)
        if not self.user_has_permission("change"):
            return buttons
        if instance.status == Snapshot.Status.DRAFT:
            buttons.append(
                ListingMenuItem(
                    _("Publish"), self.snapshot_url("publish", instance), icon_name="upload", priority=15
                )
            )
        elif instance.status == Snapshot.Status.PUBLISHED:
            buttons.append(
                ListingMenuItem(
                    _("Create correction"),
                    self.snapshot_url("correct", instance),
                    icon_name="edit",
                    priority=15,
                )
            )
        return buttons


class SnapshotEditView(SnapshotUrlsMixin, EditView):
    """Drafts are edited as usual; published and superseded snapshots are shown read-only."""

    @cached_property
    def read_only(self):
        return self.object.status != Snapshot.Status.DRAFT

    def get_template_names(self):
        if self.read_only:
            return ["benchmarks/admin/snapshot_readonly.html"]
        return ["benchmarks/admin/snapshot_edit.html"]

    @cached_property
    def measurements(self):
        """The page of measurements on screen (`?p=`, filter); see snapshot_measurements."""
        return measurement_window(self.object, self.request.GET)

    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        if self.read_only:
            rows = snapshot_rows(self.object).none()  # shown as a table, not as forms
        elif self.request.method == "POST":
            # The rows the submitted page carries, whatever page they are on now.
            rows = snapshot_rows(self.object).filter(pk__in=posted_row_ids(self.request.POST, "measurements"))
        else:
            rows = self.measurements.rows
        return restrict_formset(form, rows)

    def post(self, request, *args, **kwargs):
        self.object = self.get_object()
        if self.read_only:
            messages.error(request, read_only_message(self.object))
            return redirect(self.get_edit_url())
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        form.instance.prepared_by_user_id = self.request.user.pk
        try:
            return super().form_valid(form)
        except ValidationError as error:
            # Published in another tab meanwhile: the model refuses the change; say so on the form.
            form.add_error(None, error)
            self.produced_error_message = self.get_error_message()
            return self.form_invalid(form)

    @cached_property
    def can_delete(self):
        return not self.read_only and super().can_delete

    def get_header_buttons(self):
        buttons = list(super().get_header_buttons())
        if self.user_has_permission("change"):
            if self.object.status == Snapshot.Status.DRAFT:
                buttons.insert(
                    0,
                    HeaderButton(
                        _("Publish"), url=self.snapshot_url("publish", self.object), icon_name="upload"
                    ),
                )
            elif self.object.status == Snapshot.Status.PUBLISHED:
                buttons.insert(
                    0,
                    HeaderButton(
                        _("Create correction"),
                        url=self.snapshot_url("correct", self.object),
                        icon_name="edit",
                    ),
                )
        return buttons

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        snapshot = self.object
        context["read_only"] = self.read_only
        context["read_only_message"] = read_only_message(snapshot) if self.read_only else ""
        context["superseded_by"] = Snapshot.objects.filter(supersedes=snapshot).first()
        context["measurements"] = self.measurements
        if self.request.GET:
            # Saving a page of rows comes back to the same page and filter.
            context["action_url"] = f"{context['action_url']}?{self.request.GET.urlencode()}"
        if self.read_only:
            context["price_count"] = snapshot.prices.count()
        else:
            # Prices are not inline rows of a snapshot: each links to its own form while this is a
            # draft, a page of them at a time (`?price_page=`, filter).
            context["draft_prices"] = price_window(snapshot, self.request.GET)
        if self.user_has_permission("change"):
            context["publish_url"] = self.snapshot_url("publish", snapshot)
            context["correct_url"] = self.snapshot_url("correct", snapshot)
        return context


class SnapshotCreateView(CreateView):
    def form_valid(self, form):
        form.instance.prepared_by_user_id = self.request.user.pk
        return super().form_valid(form)


def four_eyes_refusal(user, snapshot):
    """Why `user` may not publish this draft (four eyes), or None."""
    if four_eyes.refuses(user, snapshot.prepared_by_user_id):
        return _("You prepared this draft, so someone else must publish it (four eyes).")
    return None


class SnapshotDeleteView(DeleteView):
    def dispatch(self, request, *args, **kwargs):
        if self.object.status != Snapshot.Status.DRAFT:
            messages.error(request, read_only_message(self.object))
            return redirect(self.edit_url_name, self.object.pk)
        return super().dispatch(request, *args, **kwargs)


def read_only_message(snapshot):
    if snapshot.status == Snapshot.Status.SUPERSEDED:
        return _(
            "This snapshot was superseded by a correction and is kept unchanged as history. "
            "Its figures are no longer shown on the site."
        )
    return _(
        "This snapshot is published and cannot be changed. To fix a figure, create a correction: "
        "a draft copy you edit and publish with a note. This snapshot is then kept, unchanged, as history."
    )


class SnapshotActionView(SnapshotUrlsMixin, WagtailAdminTemplateMixin, TemplateView):
    """Shared by publish and correct: a confirmation page on GET, the action on POST."""

    header_icon = "table"

    def dispatch(self, request, *args, **kwargs):
        policy = Snapshot.snippet_viewset.permission_policy
        if not policy.user_has_permission(request.user, "change"):
            raise PermissionDenied
        self.object = get_object_or_404(
            Snapshot.objects.select_related("source", "supersedes"), pk=kwargs["pk"]
        )
        return super().dispatch(request, *args, **kwargs)

    def get_page_subtitle(self):
        return str(self.object)

    def get_breadcrumbs_items(self):
        return self.breadcrumbs_items + [
            {"url": reverse(Snapshot.snippet_viewset.get_url_name("list")), "label": _("Snapshots")},
            {"url": self.snapshot_url("edit", self.object), "label": str(self.object)},
            {"url": "", "label": self.get_page_title()},
        ]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            object=self.object,
            edit_url=self.snapshot_url("edit", self.object),
            measurement_count=self.object.measurements.count(),
        )
        return context


class SnapshotPublishView(SnapshotActionView):
    template_name = "benchmarks/admin/snapshot_publish.html"
    page_title = _("Publish snapshot")

    def post(self, request, *args, **kwargs):
        snapshot = self.object
        note = request.POST.get("correction_note", snapshot.correction_note).strip()
        if snapshot.status != Snapshot.Status.DRAFT:
            messages.error(request, _("Only a draft snapshot can be published."))
            return redirect(self.snapshot_url("edit", snapshot))
        if not snapshot.measurements.exists() and not snapshot.prices.exists():
            messages.error(request, _("This snapshot has no measurements; add some before publishing it."))
            return redirect(self.snapshot_url("edit", snapshot))
        if refusal := four_eyes_refusal(request.user, snapshot):
            messages.error(request, refusal)
            return redirect(self.snapshot_url("edit", snapshot))
        try:
            if snapshot.supersedes_id:
                snapshot.supersedes.publish_correction(snapshot, note)
            else:
                snapshot.publish()
        except ValidationError as error:
            return self.render_to_response(self.get_context_data(errors=error.messages, correction_note=note))
        invalidate_after_commit(keys=())  # the publish bumped the snapshot's models
        if snapshot.supersedes_id:
            messages.success(
                request,
                _("Snapshot #%(new)s published; it replaces snapshot #%(old)s, which is kept as history.")
                % {"new": snapshot.pk, "old": snapshot.supersedes_id},
            )
        else:
            messages.success(request, _("Snapshot #%(pk)s published.") % {"pk": snapshot.pk})
        return redirect(self.snapshot_url("edit", snapshot))

    def get_context_data(self, **kwargs):
        kwargs.setdefault("correction_note", self.object.correction_note)
        kwargs.setdefault("four_eyes_refusal", four_eyes_refusal(self.request.user, self.object))
        return super().get_context_data(**kwargs)


class SnapshotCorrectView(SnapshotActionView):
    template_name = "benchmarks/admin/snapshot_correct.html"
    page_title = _("Create correction")

    def post(self, request, *args, **kwargs):
        try:
            draft, created = start_correction(self.object, request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
            return redirect(self.snapshot_url("edit", self.object))
        if created:
            messages.success(
                request,
                _("Draft correction #%(pk)s created. Fix the figures, say what changed and publish it.")
                % {"pk": draft.pk},
            )
        else:
            messages.info(request, _("A draft correction of this snapshot already exists; here it is."))
        return redirect(self.snapshot_url("edit", draft))


def seconds_input():
    # Wagtail's default date-time format stops at minutes: saving a correction untouched moved its
    # measurement time back to the minute (11:56:23 became 11:56:00), no longer the time of the original.
    return AdminDateTimeInput(format="%Y-%m-%d %H:%M:%S")


MOMENT_FIELDS = ("window_start", "window_end", "measured_at", "fetched_at")


class SnapshotForm(WagtailAdminModelForm):
    """Keeps a time the editor did not change exactly as stored, sub-second part included.

    The field shows seconds (seconds_input), not the microseconds a refresh or an import records
    (18:16:16.594170): saving a correction untouched parsed back 18:16:16 and moved the copy off the
    time of the snapshot it corrects. A posted time equal to the one shown keeps the instance's value;
    a time the editor typed is saved as typed, to the second. (Django's `changed_data` can't tell:
    for `fetched_at`, whose default is callable, it compares with a hidden initial value the admin
    does not post, and so reads every post as a change.)"""

    def clean(self):
        cleaned = super().clean()
        for name in MOMENT_FIELDS:
            stored = self.initial.get(name)
            if isinstance(stored, datetime) and cleaned.get(name) == stored.replace(microsecond=0):
                cleaned[name] = stored
        return cleaned


class SnapshotViewSet(SnippetViewSet):
    model = Snapshot
    icon = "table"
    menu_label = _("Snapshots")
    index_view_class = SnapshotIndexView
    add_view_class = SnapshotCreateView
    edit_view_class = SnapshotEditView
    delete_view_class = SnapshotDeleteView
    copy_view_enabled = False
    inspect_view_enabled = True
    list_display = [
        "__str__",
        "source",
        DateColumn("measured_at", label=_("measured at"), sort_key="measured_at"),
        StatusTagColumn(
            "status",
            label=_("status"),
            accessor="get_status_display",
            primary=lambda s: s.status == "published",
        ),
        Column("measurement_count", label=_("measurements")),
    ]
    filterset_class = SnapshotFilterSet
    search_fields = ["source__title_en", "source__publisher", "workload", "effort", "correction_note"]
    ordering = ["-measured_at"]
    chooser_viewset_class = chooser_viewset_class(
        ["source__title_en", "source__publisher", "workload"], ("source",)
    )
    edit_handler = ObjectList(
        [
            FieldPanel("source"),
            MultiFieldPanel(
                [
                    FieldPanel("workload"),
                    FieldRowPanel(
                        [FieldPanel("effort"), FieldPanel("concurrency"), FieldPanel("sample_size")]
                    ),
                    FieldRowPanel([FieldPanel(name, widget=seconds_input()) for name in ("window_start", "window_end")]),
                    FieldRowPanel([FieldPanel(name, widget=seconds_input()) for name in ("measured_at", "fetched_at")]),
                ],
                heading=_("What was measured and how"),
            ),
            FieldPanel("correction_note"),
            MeasurementsPanel(
                "measurements",
                heading=_("Measurements"),
                label=_("Measurement"),
                panels=[FieldRowPanel([FieldPanel("endpoint", widget=EndpointChooser), FieldPanel("metric"), FieldPanel("value")])],
            ),
        ],
        base_form_class=SnapshotForm,
    )

    def get_urlpatterns(self):
        return super().get_urlpatterns() + [
            path("publish/<int:pk>/", SnapshotPublishView.as_view(), name="publish"),
            path("correct/<int:pk>/", SnapshotCorrectView.as_view(), name="correct"),
        ]
