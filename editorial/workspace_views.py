"""Admin views of the translation workspace: translate, preview in Spanish, review and approve."""

import logging

from django.apps import apps
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import TemplateView, View
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.models import Page

from . import approval, review_display, token_chips, workspace_groups
from .addresses import address_changes
from .models import TranslationDraft
from .spanish import memory_for, translated_fields
from .workspace import (
    ENGLISH_DRAFT,
    ENGLISH_LIVE,
    STATUS_LABELS,
    DraftRefused,
    current_english,
    filter_rows,
    has_unpublished_english,
    open_draft,
    review_rows,
    save_draft,
)
from .workspace import workspace_rows as build_rows

logger = logging.getLogger(__name__)

TRANSLATE_PERMISSION = "editorial.translate"
REVIEW_PERMISSION = "editorial.review_translation"


def workspace_url(obj, name="editorial_workspace"):
    return reverse(name, args=[obj._meta.app_label, obj._meta.model_name, obj.pk])


def translated_object(app_label, model_name, pk):
    try:
        model = apps.get_model(app_label, model_name)
    except LookupError:
        raise Http404 from None
    if not translated_fields(model):
        raise Http404
    obj = model._default_manager.filter(pk=pk).first()
    if obj is None:
        raise Http404
    return obj.specific if isinstance(obj, Page) else obj


class ObjectMixin(WagtailAdminTemplateMixin):
    permission = TRANSLATE_PERMISSION
    header_icon = "doc-full"

    def dispatch(self, request, app_label, model_name, pk):
        if not request.user.has_perm(self.permission):
            raise PermissionDenied
        self.object = translated_object(app_label, model_name, pk)
        self.memory = memory_for(self.object)
        self.draft = open_draft(self.memory)
        return super().dispatch(request)

    def get_page_subtitle(self):
        return self.object.title if isinstance(self.object, Page) else str(self.object)

    def get_breadcrumbs_items(self):
        return self.breadcrumbs_items + [
            {"url": reverse("editorial_translation_status"), "label": _("Translation status")},
            {"url": "", "label": self.get_page_subtitle()},
        ]


class WorkspaceView(ObjectMixin, TemplateView):
    template_name = "editorial/workspace.html"
    page_title = gettext_lazy("Translate into Spanish")
    filters = (("", gettext_lazy("All")), *STATUS_LABELS.items())

    @property
    def english(self):
        """Live English unless the draft's is asked for (`?english=draft`): a marked preview."""
        return ENGLISH_DRAFT if self.request.GET.get("english") == ENGLISH_DRAFT else ENGLISH_LIVE

    def get_context_data(self, errors=None, posted=None, clashes=(), **kwargs):
        context = super().get_context_data(**kwargs)
        rows = build_rows(self.object, self.memory, self.draft, self.english)
        status = self.request.GET.get("status", "")
        counts = {key: sum(1 for row in rows if row.status == key) for key, _label in self.filters if key}
        counts[""] = len(rows)
        shown = filter_rows(rows, status)
        for row in shown:
            row.errors = (errors or {}).get(row.index, [])
            # A clash shows the other person's text (saved meanwhile); other refusals keep what was typed,
            # with the hash of what the form had loaded.
            if row.index not in clashes and row.index in (posted or {}):
                row.posted, row.form_seen = posted[row.index][0], posted[row.index][1]
            else:
                row.posted = None
            if row.is_rich:
                found = token_chips.labels(row.elements)
                row.token_labels = token_chips.labels_json(found)
                row.english_html = token_chips.with_chips(row.english_shown, found)
        context.update(
            object=self.object,
            rows=shown,
            groups=workspace_groups.group_rows(shown, workspace_groups.heading_blocks(current_english(self.object))),
            status=status,
            filters=[(key, label, counts[key]) for key, label in self.filters],
            draft=self.draft,
            general_errors=(errors or {}).get(None, []),
            can_review=self.request.user.has_perm(REVIEW_PERMISSION),
            review_url=workspace_url(self.object, "editorial_workspace_review"),
            preview_url=workspace_url(self.object, "editorial_workspace_preview")
            if isinstance(self.object, Page) else "",
            english=self.english,
            has_unpublished_english=has_unpublished_english(self.object),
        )
        return context

    def post(self, request):
        posted = {}
        for name, value in request.POST.items():
            if name.startswith("text-") and name[5:].isdigit():  # anything else is not a form's field
                index = int(name[5:])
                posted[index] = (value, request.POST.get(f"seen-{index}", ""), bool(request.POST.get(f"confirm-{index}")))
        submit = request.POST.get("action") == "submit"
        try:
            draft = save_draft(self.object, request.user, posted, submit=submit, english=self.english)
        except DraftRefused as refused:
            messages.error(request, _("Nothing was saved: correct the segments marked below."))
            self.draft = open_draft(self.memory)
            context = self.get_context_data(errors=refused.errors, posted=posted, clashes=refused.clashes)
            return self.render_to_response(context, status=400)
        if submit:
            messages.success(request, _("Your translation was submitted for review."))
        elif draft is None:
            messages.info(request, _("Nothing changed."))
        else:
            messages.success(request, _("Your translation draft was saved. Readers do not see it yet."))
        query = {"status": request.GET.get("status", ""), "english": self.english if self.english == ENGLISH_DRAFT else ""}
        query = "&".join(f"{name}={value}" for name, value in query.items() if value)
        return redirect(workspace_url(self.object) + (f"?{query}" if query else ""))


class ReviewView(ObjectMixin, TemplateView):
    template_name = "editorial/workspace_review.html"
    page_title = gettext_lazy("Review the Spanish translation")
    permission = REVIEW_PERMISSION

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        submitted = self.draft if self.draft and self.draft.status == TranslationDraft.Status.SUBMITTED else None
        context.update(
            object=self.object,
            draft=submitted,
            rows=review_display.decorate(self.object, review_rows(self.object, submitted)) if submitted else [],
            contributors=review_display.contributors(submitted) if submitted else [],
            submitter=review_display.person(submitted.submitted_by) if submitted else "",
            address_changes=address_changes(self.object, submitted),
            may_approve=submitted is not None and approval.may_approve(self.request.user, submitted),
            workspace_url=workspace_url(self.object),
        )
        return context

    def post(self, request):
        if self.draft is None:
            messages.error(request, _("This translation is not awaiting review."))
            return redirect(workspace_url(self.object))
        try:
            version = int(request.POST.get("version", "0"))
        except ValueError:
            version = 0
        try:
            if request.POST.get("action") == "request_changes":
                approval.request_changes(self.draft.pk, request.user, version, request.POST.get("comment", "").strip())
                messages.success(request, _("The translation was sent back to the translator."))
            else:
                mode = approval.DRAFT_ONLY if request.POST.get("mode") == approval.DRAFT_ONLY else approval.PUBLISH
                revision = approval.approve(self.object, self.draft.pk, request.user, version, mode)
                # A page or snippet never published has no live version to update: its Spanish goes
                # out with its first publication, whatever the editor chose.
                published = mode == approval.PUBLISH and getattr(self.object, "live", True)
                messages.success(
                    request,
                    _("The Spanish text was approved and published.") if published
                    else _("The Spanish text was approved; it goes live with the next publication."),
                )
                if getattr(revision, "held_segments", 0):
                    messages.info(
                        request,
                        _("Some of it translates English that is not published yet: that Spanish goes live "
                          "when the English is published."),
                    )
        except approval.ApprovalRefused as refused:
            messages.error(request, str(refused))
            return redirect(workspace_url(self.object, "editorial_workspace_review"))
        return redirect(workspace_url(self.object))


class PreviewView(ObjectMixin, View):
    """The page as a Spanish reader would see it with this draft approved (never cached, never saved)."""

    def get(self, request):
        if not isinstance(self.object, Page):
            raise Http404
        page = self.object.get_latest_revision_as_object()
        overrides = {}
        if self.draft is not None:
            overrides = {segment.key: segment.text for segment in self.draft.segments.all() if segment.text.strip()}
        # Applied with the approved Spanish when the page renders its preview (LanguagePreviewMixin).
        page.spanish_preview_overrides = overrides
        with translation.override("es"):
            request.LANGUAGE_CODE = "es"
            response = page.make_preview_request(request, "es")
        response["Cache-Control"] = "private, no-store"
        return response
