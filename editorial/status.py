"""The translation backlog: objects whose Spanish is missing or was written against older English."""

from dataclasses import dataclass, field

from django.contrib.contenttypes.models import ContentType
from django.utils.translation import gettext_lazy as _
from wagtail.admin.admin_url_finder import AdminURLFinder
from wagtail.models import Page, WorkflowState

from .models import TranslationState
from .tracking import SOURCE_LANGUAGE, current_hashes, missing_fields, tracked_fields, tracked_models

MISSING = "missing"
OUTDATED = "outdated"


@dataclass
class StatusRow:
    obj: object
    kind: str
    missing: list = field(default_factory=list)
    outdated: list = field(default_factory=list)
    state: TranslationState | None = None
    edit_url: str | None = None
    in_review: bool = False

    @property
    def title(self):
        return self.obj.title if isinstance(self.obj, Page) else str(self.obj)

    @property
    def problem(self):
        return MISSING if self.missing else OUTDATED

    @property
    def problem_label(self):
        return _("Spanish missing") if self.missing else _("English changed after the Spanish was saved")

    @property
    def field_labels(self):
        model = type(self.obj)
        names = self.missing + [name for name in self.outdated if name not in self.missing]
        return [str(model._meta.get_field(name).verbose_name) for name in names]


def translation_backlog(user):
    """Rows for every page and snippet needing Spanish work, pages first (tree order), then snippets.

    A constant number of queries: one per tracked model, one for the states, one for open workflows.
    """
    states = {(state.content_type_id, state.object_id): state for state in TranslationState.objects.all()}
    in_review = set(
        WorkflowState.objects.active()
        .filter(base_content_type=ContentType.objects.get_for_model(Page))
        .values_list("object_id", flat=True)
    )
    finder = AdminURLFinder(user)
    rows = []
    for model in tracked_models():
        fields = tracked_fields(model)
        content_type = ContentType.objects.get_for_model(model)
        queryset = model.objects.order_by("path") if issubclass(model, Page) else model.objects.all()
        for obj in queryset:
            missing = missing_fields(obj, fields)
            state = states.get((content_type.pk, obj.pk))
            outdated = state.outdated_fields(current_hashes(obj, fields, SOURCE_LANGUAGE)) if state else []
            outdated = [name for name in outdated if name not in missing]
            if not missing and not outdated:
                continue
            rows.append(
                StatusRow(
                    obj=obj,
                    kind=str(model._meta.verbose_name),
                    missing=missing,
                    outdated=outdated,
                    state=state,
                    edit_url=finder.get_edit_url(obj),
                    in_review=str(obj.pk) in in_review and isinstance(obj, Page),
                )
            )
    pages = [row for row in rows if isinstance(row.obj, Page)]
    pages.sort(key=lambda row: row.obj.path)
    return pages + [row for row in rows if not isinstance(row.obj, Page)]
